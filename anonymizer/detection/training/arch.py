"""Cheaper NER architectures that keep the trained weights: the tok2vec encoder cut to fewer
residual layers.

The encoder is a stack of residual window layers, so the first `depth` layers of a trained
model are a valid smaller model: its output is what the deeper model saw halfway through,
and fine-tuning adapts the parser to it in far fewer steps than a model trained from scratch
(which would lose what en_core_web_md learnt from real text).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language

_RESIDUAL = "residual(expand_window>>maxout>>layernorm>>dropout)"


def encoder_stack(model: Any) -> Any:
    """The chain node holding the tok2vec's residual window layers."""
    for node in model.walk():
        if node.layers and all(layer.name == _RESIDUAL for layer in node.layers):
            return node
    raise ValueError("no residual window encoder in this model")


def truncated_encoder(model: Any, depth: int) -> None:
    """Keep only the first `depth` residual layers of the model's tok2vec encoder (in place)."""
    stack = encoder_stack(model)
    if not 1 <= depth <= len(stack.layers):
        raise ValueError(f"depth {depth} outside 1..{len(stack.layers)}")
    del stack.layers[depth:]
    stack.name = ">>".join(layer.name for layer in stack.layers)


def smaller_ner(nlp: Language, depth: int, labels: Sequence[str]) -> Language:
    """A copy of `nlp` whose NER keeps only `labels` and the first `depth` encoder layers.

    The greedy parser's loop costs time per action per token, so every label dropped (four
    BILU actions) makes each token cheaper. The copy keeps every trained weight that still
    has a place: the embeddings, the first encoder layers, the parser's hidden layer, and the
    output rows of the actions that remain, so a dropped label's tokens fall to the next best
    action (almost always O). A label the source lacks starts from fresh output rows.
    """
    import copy

    import spacy

    if depth < 2:  # thinc builds a one-layer encoder without the chain node the copy walks
        raise ValueError("the encoder keeps at least two layers")
    old = nlp.get_pipe("ner")
    config = copy.deepcopy(nlp.config["components"]["ner"])
    config.pop("factory", None)
    config["model"]["tok2vec"]["encode"]["depth"] = depth
    small = spacy.blank("en", vocab=nlp.vocab)
    small.tokenizer = nlp.tokenizer
    ner = small.add_pipe("ner", config=config)
    for label in labels:
        ner.add_label(label)
    small.initialize()
    source = copy.deepcopy(old.model)
    truncated_encoder(source, depth)
    rows = {source_name: i for i, source_name in enumerate(_class_names(old))}
    for old_node, new_node in zip(source.walk(), ner.model.walk(), strict=True):
        for name in old_node.param_names:
            if not old_node.has_param(name):
                continue
            value = old_node.get_param(name)
            if new_node is ner.model.get_ref("upper"):  # a new label's rows stay fresh
                fresh = new_node.get_param(name).copy()
                for i, class_name in enumerate(_class_names(ner)):
                    if class_name in rows:
                        fresh[i] = value[rows[class_name]]
                value = fresh
            new_node.set_param(name, value.copy())
    ner.model.attrs["unseen_classes"] = set()
    return small


def _class_names(ner: Any) -> list[str]:
    return [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
