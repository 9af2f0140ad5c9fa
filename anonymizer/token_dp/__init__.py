"""Token-level metric-LDP sanitizers (SanText, CusText, CluSanT) over MiniLM embeddings.

`sampling` holds the mechanisms' formulas, `clustering` CusText's clustering and CluSanT's
Theorem 5 check, `candidates` the public surrogate sets, `sanitizer` the document pipeline and
`receipt` what the receipts claim. The registered mechanisms live in
`anonymizer.mechanisms.token_sanitizers`.
"""

from anonymizer.token_dp.clustering import Thm5Check, check_thm5
from anonymizer.token_dp.embedding import Embedder, MiniLMEmbedder
from anonymizer.token_dp.sanitizer import VARIANTS, TokenSanitizer

__all__ = ["VARIANTS", "Embedder", "MiniLMEmbedder", "Thm5Check", "TokenSanitizer", "check_thm5"]
