"""Every headline claim of each abstract is listed with the verdict that judges it, or why none does
(icml26.common.abstract_claims): the lists quote the abstracts, name only real claim ids, and add up."""

import json

import pytest

from icml26.common import abstract_claims as ac
from icml26.common.registry import papers
from tests.conftest import ROOT

ABSTRACTS = ROOT.parent / "shared" / "papers" / "abstracts"
PAPERS = papers(ROOT)


def _judged_ids(slug: str) -> set[str]:
    """The committed quick claim ids, and the measured wall-clock ones recorded for the docs."""
    ids = {c["id"] for c in json.loads((ROOT / "results" / "quick" / slug / "claims.json").read_text())}
    measured = ROOT / "docs" / "papers" / "figures" / slug / "measured.json"
    if measured.exists():
        ids |= {f["id"] for f in json.loads(measured.read_text())["figures"].values()}
    return ids


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.slug)
def test_every_paper_lists_its_abstract_claims_with_real_claim_ids(paper):
    entries = ac.load(paper.slug, ROOT)
    assert entries, f"config/abstract_claims/{paper.slug}.yaml missing"
    named = [i for e in entries for i in e.get("by", [])]
    assert set(named) <= _judged_ids(paper.slug), set(named) - _judged_ids(paper.slug)


@pytest.mark.skipif(not ABSTRACTS.is_dir(), reason="../shared/papers/abstracts not present")
@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.slug)
def test_each_listed_claim_quotes_its_abstract_word_for_word(paper):
    text = (ABSTRACTS / f"{paper.slug}.md").read_text(encoding="utf-8")
    assert ac.quote_problems(ac.load(paper.slug, ROOT), text) == []


def test_a_misquoted_claim_is_found():
    entries = [{"abstract": "improves   consistency\nsignificantly"}, {"abstract": "beats every baseline"}]
    assert ac.quote_problems(entries, "It improves consistency significantly, they say.") == ["beats every baseline"]


GOOD = {"abstract": "x holds", "judged": "proxy", "by": ["c1"], "why": "a stand-in"}


@pytest.mark.parametrize(
    "entry, says",
    [
        ({**GOOD, "judged": "sort of"}, "'judged' is 'sort of'"),
        ({**GOOD, "why": ""}, "says why in 'why'"),
        ({**GOOD, "by": []}, "'by' must list"),
        ({**GOOD, "judged": "not judged", "reason": "a theorem"}, "names no 'by' ids"),
        ({"abstract": "x", "judged": "not judged", "why": "w"}, "'reason' is None"),
        ({"abstract": "x", "judged": "not judged", "reason": "too hard", "why": "w"}, "'reason' is 'too hard'"),
        ({**GOOD, "reason": "a theorem"}, "'reason' is for claims not judged"),
        ({**GOOD, "verdict": "holds"}, "unknown key 'verdict'"),
        ({**GOOD, "abstract": " "}, "'abstract' must quote"),
    ],
)
def test_a_malformed_entry_is_one_line_naming_the_file_and_claim(entry, says):
    with pytest.raises(ac.AbstractClaimsError) as err:
        ac.validate({"claims": [GOOD, entry]}, "config/abstract_claims/p.yaml")
    message = str(err.value)
    assert message.startswith("config/abstract_claims/p.yaml: claim 2: ") and says in message and "\n" not in message


def test_as_stated_needs_no_why_and_a_file_without_claims_is_refused():
    assert ac.validate({"claims": [{"abstract": "x", "judged": "as stated", "by": ["c"]}]}, "f") == [
        {"abstract": "x", "judged": "as stated", "by": ["c"]}
    ]
    with pytest.raises(ac.AbstractClaimsError, match="needs 'claims:'"):
        ac.validate({"claims": []}, "f")


def test_counts_add_up_and_name_each_reason():
    listed = {
        "a": [GOOD, {**GOOD, "judged": "as stated"}, {"abstract": "t", "judged": "not judged", "reason": "a theorem"}],
        "b": [{"abstract": "g", "judged": "not judged", "reason": "needs a GPU"}] * 2,
    }
    assert ac.counts_sentence(listed).startswith(
        "5 headline claims in the abstracts of 2 papers: 1 judged as stated, 1 by a proxy (a stand-in setting or a "
        "weaker statement), 3 not judged here (2 need a GPU, 1 a theorem)"
    )
    judged, reasons = ac.counts({p.slug: ac.load(p.slug, ROOT) for p in PAPERS})
    assert sum(judged.values()) == judged["as stated"] + judged["proxy"] + judged["not judged"]
    assert sum(reasons.values()) == judged["not judged"]
