"""bench.ner_decode_speed: spaCy's parse and the fast decoder timed on the same documents in
every round, and a difference in their entities fails the run."""

from __future__ import annotations

from typing import Any

import pytest

from bench import ner_decode_speed


def test_it_times_both_and_reports_identical_entities(capsys: pytest.CaptureFixture) -> None:
    assert ner_decode_speed.main(["--rounds", "2", "--sets", "dev-hand-hard"]) == 0
    out = capsys.readouterr().out
    assert "2 rounds" in out and "of spaCy's parse" in out
    assert "identical: True" in out


def test_a_decoder_that_finds_other_entities_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    real = ner_decode_speed._decoder

    def drops_the_last_entity(nlp: Any):
        decode = real(nlp)
        return lambda n, docs: [ents[:-1] for ents in decode(n, docs)]

    monkeypatch.setattr(ner_decode_speed, "_decoder", drops_the_last_entity)
    assert ner_decode_speed.main(["--rounds", "1", "--sets", "dev-hand-hard"]) == 1
    assert "identical: False" in capsys.readouterr().out
