"""Each paper's abstract, claim by claim: which verdict judges it, how faithfully, or why none does.

The pipelines judge the claims their specs register (``config/criteria/<slug>.yaml``); an abstract makes more
headline claims than that, and some are judged only through a proxy (a stand-in model, a weaker metric). So that
the count is honest, ``config/abstract_claims/<slug>.yaml`` lists every headline claim of the abstract
(``../shared/papers/abstracts/<slug>.md``) in the abstract's own words, with

- ``judged``: ``as stated`` (the claim itself, in the paper's setting or a scaled-down copy of it), ``proxy`` (a
  stand-in setting or a weaker statement; ``why`` says how it differs) or ``not judged`` (``reason`` from
  :data:`REASONS`, ``why`` says what it would take);
- ``by``: the claim ids that judge it (``results/<scale>/<slug>/claims.json``, or a measured wall-clock claim in
  ``docs/papers/figures/<slug>/measured.json``); none for ``not judged``.

The docs page of each paper shows the table (``make docs``) and the summary counts them (:func:`counts_sentence`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

from .config import load_yaml

FOLDER = Path("config") / "abstract_claims"
ABSTRACTS = Path("..") / "shared" / "papers" / "abstracts"
JUDGED = ("as stated", "proxy", "not judged")
REASONS = (
    "needs a GPU",  # the paper's models; a stand-in cannot speak for them
    "paper scale only",  # no quick stand-in; its paper scale runs it, and has not yet
    "data not offline",  # public, but not obtainable on this machine (a paper-scale key takes it by path)
    "a theorem",  # a proof or lower bound: no finite experiment decides it
    "a human study",
    "not built yet",  # judgeable here; the claim is not registered yet
)
KEYS = {"abstract", "judged", "by", "reason", "why"}


class AbstractClaimsError(ValueError):
    """A malformed ``config/abstract_claims/<slug>.yaml``, named with the entry and key at fault."""


def path(slug: str, root: str | os.PathLike = ".") -> Path:
    return Path(root) / FOLDER / f"{slug}.yaml"


def load(slug: str, root: str | os.PathLike = ".") -> list[dict] | None:
    """The paper's abstract claims, checked (None when the paper has no file)."""
    file = path(slug, root)
    return load_file(file) if file.exists() else None


def load_file(file: str | os.PathLike) -> list[dict]:
    """One ``config/abstract_claims/<slug>.yaml``, checked."""
    return validate(load_yaml(Path(file).read_text(encoding="utf-8")), str(file))


def validate(data, where: str) -> list[dict]:
    """Each entry has the abstract's words, a ``judged`` value of :data:`JUDGED`, ``by`` ids exactly when judged,
    a ``reason`` of :data:`REASONS` exactly when not judged, and a ``why`` unless judged as stated."""
    if not isinstance(data, dict) or not isinstance(data.get("claims"), list) or not data["claims"]:
        raise AbstractClaimsError(f"{where}: needs 'claims:', a list of the abstract's headline claims")
    entries = data["claims"]
    for i, entry in enumerate(entries, 1):
        at = f"{where}: claim {i}"
        if not isinstance(entry, dict):
            raise AbstractClaimsError(f"{at}: an entry is a mapping with {', '.join(sorted(KEYS))}")
        unknown = sorted(set(entry) - KEYS)
        if unknown:
            raise AbstractClaimsError(f"{at}: unknown key {unknown[0]!r} (known: {', '.join(sorted(KEYS))})")
        if not isinstance(entry.get("abstract"), str) or not entry["abstract"].strip():
            raise AbstractClaimsError(f"{at}: 'abstract' must quote the abstract's words")
        judged = entry.get("judged")
        if judged not in JUDGED:
            raise AbstractClaimsError(f"{at}: 'judged' is {judged!r}; one of {', '.join(JUDGED)}")
        ids = entry.get("by", [])
        if judged == "not judged":
            if ids:
                raise AbstractClaimsError(f"{at}: a claim 'not judged' names no 'by' ids (say them in 'why')")
            if entry.get("reason") not in REASONS:
                raise AbstractClaimsError(f"{at}: 'reason' is {entry.get('reason')!r}; one of {', '.join(REASONS)}")
        else:
            if not ids or not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
                raise AbstractClaimsError(f"{at}: 'by' must list the claim ids that judge it")
            if "reason" in entry:
                raise AbstractClaimsError(f"{at}: 'reason' is for claims not judged; say how in 'why'")
        if judged != "as stated" and not str(entry.get("why") or "").strip():
            raise AbstractClaimsError(f"{at}: a claim judged {judged!r} says why in 'why'")
    return entries


def quote_problems(entries: list[dict], abstract_text: str) -> list[str]:
    """The entries whose ``abstract`` words are not in the abstract (whitespace-insensitive)."""
    flat = " ".join(abstract_text.split())
    return [e["abstract"] for e in entries if " ".join(e["abstract"].split()) not in flat]


def counts(entries_by_paper: dict[str, list[dict]]) -> tuple[Counter, Counter]:
    """(entries per ``judged`` value, not-judged entries per reason) over the papers given."""
    judged = Counter(e["judged"] for entries in entries_by_paper.values() for e in entries)
    reasons = Counter(e["reason"] for entries in entries_by_paper.values() for e in entries if "reason" in e)
    return judged, reasons


def counts_sentence(entries_by_paper: dict[str, list[dict]]) -> str:
    """'88 headline claims in the abstracts of 19 papers: 17 judged as stated, 43 by a proxy, 28 not judged here
    (12 need a GPU, ...).' -- the parts add up to the total."""
    judged, reasons = counts(entries_by_paper)
    total = sum(judged.values())
    why = ", ".join(f"{n} {_reason_phrase(r, n)}" for r, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    papers = len(entries_by_paper)
    return (
        f"{total} headline claims in the abstract{'s' if papers != 1 else ''} of {papers} "
        f"paper{'s' if papers != 1 else ''}: {judged['as stated']} judged as stated, {judged['proxy']} by a proxy "
        f"(a stand-in setting or a weaker statement), {judged['not judged']} not judged here"
        + (f" ({why})" if why else "")
        + "; each paper's docs page lists them (`config/abstract_claims/`)."
    )


PLURAL = {
    "needs a GPU": "need a GPU",
    "paper scale only": "paper scale only",
    "data not offline": "on data not offline",
    "a theorem": "theorems",
    "a human study": "human studies",
    "not built yet": "not built yet",
}


def _reason_phrase(reason: str, n: int) -> str:
    return PLURAL[reason] if n != 1 or reason == "data not offline" else reason


def docs_section(root: str | os.PathLike, slug: str, verdicts: dict[str, str]) -> str:
    """The docs page's table: each abstract claim, the ids that judge it with their committed quick verdicts
    (``verdicts``: id -> verdict word), how faithfully, and why."""
    entries = load(slug, root)
    if entries is None:
        return f"No abstract claims listed (`{FOLDER.as_posix()}/{slug}.yaml`)."
    lines = [
        f"From `{FOLDER.as_posix()}/{slug}.yaml`: every headline claim of the abstract, the verdict that judges it "
        "(committed quick verdicts) and how faithfully, or why none does.",
        "",
        "| the abstract says | judged by | how | why |",
        "|---|---|---|---|",
    ]
    for e in entries:
        by = "<br>".join(f"`{i}` ({verdicts.get(i, 'not committed')})" for i in e.get("by", [])) or "—"
        how = "not judged here: " + e["reason"] if e["judged"] == "not judged" else e["judged"]
        cells = (f"“{plain(e['abstract'])}”", by, how, " ".join(str(e.get("why", "")).split()))
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    judged, _ = counts({slug: entries})
    lines += [
        "",
        f"{sum(judged.values())} headline claims: {judged['as stated']} judged as stated, "
        f"{judged['proxy']} by a proxy, {judged['not judged']} not judged here.",
    ]
    named = {i for e in entries for i in e.get("by", [])}
    others = [i for i in verdicts if i not in named]
    if others:
        lines[-1] += (
            " Also judged, from the paper's body or the spec rather than the abstract: "
            + ", ".join(f"`{i}` ({verdicts[i]})" for i in others)
            + "."
        )
    return "\n".join(lines)


def plain(text: str) -> str:
    """The abstract's words without LaTeX markup (``$\\textbf{X}$`` -> X, ``\\%`` -> %), on one line."""
    text = re.sub(r"\\text(?:bf|tt|it)\{([^}]*)\}", r"\1", " ".join(text.split()))
    for latex, symbol in SYMBOLS.items():
        text = text.replace(latex, symbol)
    return text.replace("$", "").replace("\\", "")


SYMBOLS = {"\\tilde O": "Õ", "\\times": "×", "\\%": "%", "\\beta": "β", "\\eta": "η", "\\gamma": "γ", "\\Delta": "Δ"}
