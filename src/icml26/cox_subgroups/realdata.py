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

# name -> (loader, time field, event field, adjustment column, subgroup column)
SKSURV = {
    "veterans": ("load_veterans_lung_cancer", "Survival_in_days", "Status", "Karnofsky_score", "Age_in_years"),
    "whas500": ("load_whas500", "lenfol", "fstat", "diasbp", "age"),
    "gbsg2": ("load_gbsg2", "time", "cens", "tsize", "age"),
    "aids": ("load_aids", "time", "censor", "cd4", "age"),
}
METABRIC = {"adjust": 0, "subgroup": 8}  # MKI67, age at diagnosis
DATASETS = (*SKSURV, "metabric")
COLUMNS = ["time", "event", "adjust", "subgroup"]


def load(name: str, metabric_source: str | Path | None = None) -> pd.DataFrame:
    """One dataset as ``time, event, adjust, subgroup`` (rows with missing values dropped)."""
    if name in SKSURV:
        from sksurv import datasets

        loader, t_field, e_field, adjust, subgroup = SKSURV[name]
        X, y = getattr(datasets, loader)()
        frame = pd.DataFrame({"time": y[t_field].astype(float), "event": y[e_field].astype(int),
                              "adjust": X[adjust].astype(float).to_numpy(),
                              "subgroup": X[subgroup].astype(float).to_numpy()})
    elif name == "metabric":
        import h5py

        if metabric_source is None or not Path(metabric_source).exists():
            raise FileNotFoundError(f"METABRIC source not found: {metabric_source} (see ../shared/data/README.md)")
        parts = []
        with h5py.File(metabric_source, "r") as h5:
            for group in ("train", "test"):
                x = np.asarray(h5[group]["x"], dtype=float)
                parts.append(pd.DataFrame({"time": np.asarray(h5[group]["t"], dtype=float),
                                           "event": np.asarray(h5[group]["e"]).astype(int),
                                           "adjust": x[:, METABRIC["adjust"]], "subgroup": x[:, METABRIC["subgroup"]]}))
        frame = pd.concat(parts, ignore_index=True)
    else:
        raise ValueError(f"dataset must be one of {DATASETS}, got {name!r}")
    frame = frame.dropna()
    return frame[frame["time"] > 0].reset_index(drop=True)[COLUMNS]
