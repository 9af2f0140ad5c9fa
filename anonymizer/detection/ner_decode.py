"""Greedy decoding of spaCy's transition-based NER, with the same entities as spaCy's parser.

Hand-written because no library offers it: spaCy's wheels for Python 3.11 are compiled with
Cython's profiling hooks, which take the GIL at every call of the parser's inline state
functions (under `perf`, a third of the NER's decoding time went to taking and dropping
the GIL), and its loop scores every token one step at a time. Outside an entity the
state's features do not depend on earlier decisions (the open-entity slots are padding), so
here those scores come from one matrix product over all tokens, and only the tokens inside an
entity are decided one by one. Same weights, same transition rules (`BiluoPushDown`'s
validity checks for documents without preset entities), same arg-max tie-breaking, so the
same entities (`tests/anonymizer/detection/test_ner_decode.py` compares them with spaCy's on
the development sets); `python -m bench.ner_decode_speed` times both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

MOVE_PREFIXES = ("B-", "I-", "L-", "U-")


class GreedyNerDecoder:
    """Entities of a spaCy `ner` component's greedy parse, for the architecture we ship."""

    def __init__(self, ner: Any) -> None:
        reason = unsupported_reason(ner)
        if reason:
            raise ValueError(f"this NER cannot be decoded here: {reason}")
        names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
        self.labels = sorted({n[2:] for n in names if n[:2] in MOVE_PREFIXES and n[2:]})
        column = {n: i for i, n in enumerate(names)}
        self.out_column = column["O"]
        self.begin, self.inside, self.last, self.unit = (
            np.array([column[f"{prefix}{label}"] for label in self.labels])
            for prefix in MOVE_PREFIXES
        )
        model = ner.model
        lower, upper = model.get_ref("lower"), model.get_ref("upper")
        self.tok2vec = model.get_ref("tok2vec")
        self.lower = lower
        self.hidden, self.pieces = lower.get_dim("nO"), lower.get_dim("nP")
        self.lower_bias = lower.get_param("b").reshape(self.hidden * self.pieces)
        self.upper_weights = upper.get_param("W")
        self.upper_bias = upper.get_param("b")
        # Outside an entity only O, B-x and U-x are valid; their columns in class order, so
        # that arg-max breaks ties towards the lower class as spaCy's `arg_max_if_valid` does.
        closed = np.concatenate([[self.out_column], self.begin, self.unit])
        self.closed_columns = np.sort(closed)
        self.closed_is_begin = np.isin(self.closed_columns, self.begin)
        self.closed_is_unit = np.isin(self.closed_columns, self.unit)
        self.label_of_column = {int(c): i for i, c in enumerate(self.begin)}
        self.label_of_column.update({int(c): i for i, c in enumerate(self.unit)})

    def entities(self, docs: Sequence[Any]) -> list[list[tuple[int, int, str]]]:
        """(start token, end token, label) of each document's entities, in order."""
        from spacy.attrs import IS_SPACE, SENT_START

        out: list[list[tuple[int, int, str]]] = [[] for _ in docs]
        parsed = [i for i, doc in enumerate(docs) if len(doc)]
        if not parsed:
            return out
        batch = [docs[i] for i in parsed]
        features = self.lower.predict(self.tok2vec.predict(batch))
        n_tokens = features.shape[0] - 1  # row 0 is the padding for an empty feature slot
        features = features.reshape(n_tokens + 1, 3, self.hidden * self.pieces)
        starts = np.cumsum([0] + [len(doc) for doc in batch])
        attrs = np.concatenate([doc.to_array([IS_SPACE, SENT_START]) for doc in batch])
        space = attrs[:, 0] == 1
        last = np.zeros(n_tokens, dtype=bool)
        last[starts[1:] - 1] = True
        # an entity may not run on past a document's last token or into a sentence start
        cannot_continue = last.copy()
        cannot_continue[:-1] |= attrs[1:, 1] == 1
        choice = self._closed_choices(features, space, cannot_continue)
        found: list[tuple[int, int, int]] = []
        position = 0
        for token in np.flatnonzero(choice != self.out_column).tolist():
            if token < position:
                continue  # inside the entity just decoded
            column = int(choice[token])
            label = self.label_of_column[column]
            end = token + 1
            if self.closed_is_begin[np.searchsorted(self.closed_columns, column)]:
                end = self._entity_end(features, token, label, cannot_continue)
            found.append((token, end, label))
            position = end
        doc_of = np.searchsorted(starts, [f[0] for f in found], side="right") - 1
        for (start, end, label), d in zip(found, doc_of.tolist(), strict=True):
            out[parsed[d]].append(
                (start - int(starts[d]), end - int(starts[d]), self.labels[label])
            )
        return out

    def annotate(self, docs: Sequence[Any]) -> None:
        """Set each document's entities, as running the `ner` component would."""
        from spacy.tokens import Span

        for doc, ents in zip(docs, self.entities(docs), strict=True):
            doc.set_ents([Span(doc, s, e, label=label) for s, e, label in ents], default="outside")

    def _closed_choices(
        self, features: np.ndarray, space: np.ndarray, cannot_continue: np.ndarray
    ) -> np.ndarray:
        """For every token, the action taken if no entity is open when it is reached."""
        summed = ((features[1:, 0] + features[0, 1]) + features[0, 2]) + self.lower_bias
        hidden = summed.reshape(len(summed), self.hidden, self.pieces).max(axis=-1)
        scores = (hidden @ self.upper_weights.T + self.upper_bias)[:, self.closed_columns]
        valid = np.ones_like(scores, dtype=bool)
        valid[:, self.closed_is_begin] = (~space & ~cannot_continue)[:, None]
        valid[:, self.closed_is_unit] = (~space)[:, None]
        scores[~valid] = -np.inf
        return self.closed_columns[scores.argmax(axis=1)]

    def _entity_end(
        self, features: np.ndarray, start: int, label: int, cannot_continue: np.ndarray
    ) -> int:
        """The end token of an entity opened at `start`: only I-label and L-label are valid
        while it is open, and I-label not where it cannot continue."""
        inside_w = self.upper_weights[self.inside[label]]
        last_w = self.upper_weights[self.last[label]]
        inside_b = self.upper_bias[self.inside[label]]
        last_b = self.upper_bias[self.last[label]]
        opened = features[start + 1, 1]
        token = start + 1
        while True:
            if cannot_continue[token]:
                return token + 1
            summed = ((features[token + 1, 0] + opened) + features[token, 2]) + self.lower_bias
            hidden = summed.reshape(self.hidden, self.pieces).max(axis=-1)
            # I-label comes before L-label in class order, so it wins a tie
            if hidden @ inside_w + inside_b < hidden @ last_w + last_b:
                return token + 1
            token += 1


def unsupported_reason(ner: Any) -> str | None:
    """Why `GreedyNerDecoder` cannot stand in for this component's parse (None if it can)."""
    from spacy.pipeline._parser_internals.ner import BiluoPushDown

    model = ner.model
    if not isinstance(ner.moves, BiluoPushDown):
        return "not a BILUO entity recognizer"
    if ner.cfg.get("beam_width", 1) != 1:
        return "beam search"
    if not model.attrs.get("has_upper") or model.attrs.get("unseen_classes"):
        return "no hidden layer, or classes never seen in training"
    lower = model.get_ref("lower")
    if lower.get_dim("nF") != 3 or lower.get_dim("nP") < 2:
        return "not the NER state features with maxout"
    return None
