"""Token-level metric-LDP sanitizers (SanText, CusText, CluSanT) over MiniLM embeddings.

`sampling` holds the mechanisms' formulas, `clustering` the public clusters, the input → cluster
map and CluSanT's whole-space bound, `candidates` the public surrogate sets, `sanitizer` the
document pipeline and `receipt` what the receipts claim. The registered mechanisms live in
`anonymizer.mechanisms.token_sanitizers`.
"""

from anonymizer.token_dp.clustering import clusant_epsilon
from anonymizer.token_dp.embedding import Embedder, MiniLMEmbedder
from anonymizer.token_dp.sanitizer import VARIANTS, TokenSanitizer

__all__ = ["VARIANTS", "Embedder", "MiniLMEmbedder", "TokenSanitizer", "clusant_epsilon"]
