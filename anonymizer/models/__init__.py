"""Model files for the model-based mechanisms: finding them, fetching them, loading them once.

dp-embed-invert needs four roles (`python -m anonymizer models status` lists them):

    encoder    sentence-transformers/gtr-t5-base   GTR T5 encoder (config, tokenizer, weights)
    inverter   jxm/gtr__nq__32                     vec2text hypothesiser (config, weights)
    corrector  jxm/gtr__nq__32__correct            vec2text corrector (config, weights)
    backbone   google-t5/t5-base                   T5-base config + tokenizer only (~3 MB)

Each role is looked up, without network access, in `ANONYMIZER_<ROLE>` (a directory or a hub
id), else `$ANONYMIZER_MODEL_DIR/<role>/`, else the local Hugging Face cache (see
`resolver`). Weights are loaded once per process and device, and kept (`gtr_vec2text`).

Fetch and run with the real weights, on a machine with internet access (about 2.7 GB):

    pip install -e '.[ml]' -c constraints.txt
    pip install --no-deps vec2text==0.0.13
    python -m anonymizer models fetch                # into the Hugging Face cache
    python -m anonymizer models status               # every role "present", mechanism available
    python -m anonymizer --mechanism dp-embed-invert --detector regex \\
        --text "Contact Jane Doe at jane@example.com about the merger." --epsilon 16 --steps 5

For a machine without internet, fetch into a directory and copy it over:

    python -m anonymizer models fetch --dir /srv/anonymizer-models
    # ... copy /srv/anonymizer-models to the offline host, then there:
    export ANONYMIZER_MODEL_DIR=/srv/anonymizer-models
    python -m anonymizer models status

A directory fetched this way carries a manifest of sha256 sums, so receipts record the
published `repo@commit` only while every file still matches; any other directory is recorded
as `local:<path> sha256:<digest of its files>`.
"""
