"""Real survival datasets: subgroup on age, adjusting for one covariate (the paper's pairs).

Four ship with scikit-survival (``sksurv.datasets``; veterans lung cancer,
WHAS500, GBSG2, AIDS; their original licences apply). METABRIC comes from
``../shared/data/metabric/metabric.h5`` (DeepSurv format: features x0..x8 =
MKI67, EGFR, PGR, ERBB2, hormone treatment, radiotherapy, chemotherapy,
ER-positive, age at diagnosis; train and test groups are pooled and re-split
by our seeds; public copy accompanying the paper's code, research use). The
dataset rule writes each as ``time, event, adjust, subgroup`` CSV under DVC.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..common.sources import checked, fail

# name -> (loader, time field, event field, adjustment column, subgroup column)
SKSURV = {
    "veterans": ("load_veterans_lung_cancer", "Survival_in_days", "Status", "Karnofsky_score", "Age_in_years"),
    "whas500": ("load_whas500", "lenfol", "fstat", "diasbp", "age"),
    "gbsg2": ("load_gbsg2", "time", "cens", "tsize", "age"),
    "aids": ("load_aids", "time", "censor", "cd4", "age"),
}
METABRIC = {"adjust": 0, "subgroup": 8}  # MKI67, age at diagnosis
METABRIC_NAMES = ("MKI67", "age_at_diagnosis")
TIME_UNITS = {"veterans": "days", "whas500": "days", "gbsg2": "days", "aids": "days", "metabric": "months"}
DATASETS = (*SKSURV, "metabric")
COLUMNS = ["time", "event", "adjust", "subgroup"]


METABRIC_GROUPS = ("train", "test")  # DeepSurv format; pooled and re-split by our seeds
METABRIC_FEATURES = 9


def load_metabric(path: str | Path | None) -> pd.DataFrame:
    """METABRIC from a DeepSurv-format HDF5 file, checked: groups train/test, each with ``x`` (n, 9) finite,
    ``t`` (n,) finite and >= 0, ``e`` (n,) in {0, 1}. Row counts may differ (the user's own copy)."""
    import h5py

    if path is None:
        raise ValueError("METABRIC needs its source file: cox_subgroups.real.metabric_source")
    path = checked(path)
    parts = []
    try:
        h5 = h5py.File(path, "r")
    except OSError as error:
        fail(path, f"not a readable HDF5 file ({' '.join(str(error).split())})")
    with h5:
        for group in METABRIC_GROUPS:
            if group not in h5 or not {"x", "t", "e"} <= set(h5[group]):
                fail(path, f"group {group!r} with datasets x, t, e is required (DeepSurv format)")
            x, t, e = (np.asarray(h5[group][k]) for k in ("x", "t", "e"))
            n = len(t)
            if x.shape != (n, METABRIC_FEATURES) or e.shape != (n,) or t.shape != (n,) or n == 0:
                fail(
                    path,
                    f"{group}: expected x (n, {METABRIC_FEATURES}), t (n,), e (n,); got x {x.shape}, "
                    f"t {t.shape}, e {e.shape}",
                )
            if not (np.isfinite(x).all() and np.isfinite(t).all() and (t >= 0).all()):
                fail(path, f"{group}: x and t must be finite and t >= 0")
            if not np.isin(e, (0, 1)).all():
                fail(path, f"{group}: the event indicator e must be 0 or 1")
            parts.append(
                pd.DataFrame(
                    {
                        "time": t.astype(float),
                        "event": e.astype(int),
                        "adjust": x[:, METABRIC["adjust"]].astype(float),
                        "subgroup": x[:, METABRIC["subgroup"]].astype(float),
                    }
                )
            )
    return pd.concat(parts, ignore_index=True)


def covariate_names(name: str) -> tuple[str, str]:
    """The source's names of a dataset's ``adjust`` and ``subgroup`` columns (for tables a reader checks)."""
    return SKSURV[name][3:] if name in SKSURV else METABRIC_NAMES


def load(name: str, metabric_source: str | Path | None = None) -> pd.DataFrame:
    """One dataset as ``time, event, adjust, subgroup`` (rows with missing values dropped)."""
    if name in SKSURV:
        from sksurv import datasets

        loader, t_field, e_field, adjust, subgroup = SKSURV[name]
        X, y = getattr(datasets, loader)()
        frame = pd.DataFrame(
            {
                "time": y[t_field].astype(float),
                "event": y[e_field].astype(int),
                "adjust": X[adjust].astype(float).to_numpy(),
                "subgroup": X[subgroup].astype(float).to_numpy(),
            }
        )
    elif name == "metabric":
        frame = load_metabric(metabric_source)
    else:
        raise ValueError(f"dataset must be one of {DATASETS}, got {name!r}")
    frame = frame.dropna()
    return frame[frame["time"] > 0].reset_index(drop=True)[COLUMNS]
