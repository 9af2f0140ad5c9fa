"""`--plan`: detection, segmentation and accounting with the default detector, no model loaded."""

import json
import subprocess
import sys

import pytest

from anonymizer.cli import main


@pytest.mark.parametrize(
    ("composition", "sigma"),
    [
        ("basic", 1.4992252),
        ("zcdp", 1.3902123),
        ("gdp", 1.2244508),
    ],
)
def test_plan_reports_the_seed_example_k_and_sigma(capsys, composition, sigma):
    assert (
        main(
            [
                "--plan",
                "--text",
                "Contact Jane Doe at jane@example.com.",
                "--json",
                "--composition",
                composition,
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["n_chunks"] == 2
    assert data["sigma"] == pytest.approx(sigma, rel=1e-6)
    assert [s["placeholder"] for s in data["spans"] if s["is_pii"]] == ["[PERSON]", "[EMAIL]"]
    assert data["receipt"]["detector"] == "combined"


def test_plan_loads_no_model(tmp_path):
    """Run in a fresh process: vec2text (the model stack) is never imported by a plan."""
    code = (
        "import contextlib, io, sys\n"
        "from anonymizer.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--plan', '--text', 'Contact Jane Doe at jane@example.com.'])\n"
        "print('vec2text' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_plan_prints_the_receipt_line_in_text_mode(capsys):
    assert main(["--plan", "--text", "Contact Jane Doe at jane@example.com."]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[DP] mechanism=dp-embed-invert notion=(eps,delta)-DP")
    assert "K=2" in out and "sigma=1.499225" in out
