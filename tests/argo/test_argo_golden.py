"""The engine reproduces the golden corpus exactly: same prompts, legal actions (in order),
notations, events, JSON and views as the engine it was recorded with (see argo_golden.py)."""

from __future__ import annotations

import json

import pytest
from argo_golden import CORPUS, specs, trace

RECORDED = json.loads(CORPUS.read_text())


def test_the_corpus_covers_every_spec():
    assert sorted(RECORDED) == sorted(s.key for s in specs())
    assert len(RECORDED) == 60


@pytest.mark.parametrize("spec", specs(), ids=lambda s: s.key)
def test_game_reproduces_its_recorded_trace(spec):
    steps, digest = trace(spec)
    assert {"steps": steps, "sha256": digest} == RECORDED[spec.key]
