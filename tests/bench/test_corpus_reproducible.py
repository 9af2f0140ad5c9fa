"""The dev corpus is the same for a seed in every process, whatever the string hash seed."""

import os
import subprocess
import sys

from bench.corpus import _order_set_built_lists

DIGEST = (
    "import hashlib, json; from bench.corpus import generate_corpus; "
    "print(hashlib.sha256(json.dumps(generate_corpus(120, 7)).encode()).hexdigest())"
)


def _digest_with_hash_seed(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run(
        [sys.executable, "-c", DIGEST], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def test_corpus_does_not_depend_on_the_hash_seed() -> None:
    assert _digest_with_hash_seed("1") == _digest_with_hash_seed("2")


def test_set_built_city_list_is_sorted() -> None:
    from faker import Faker

    fake = Faker("it_IT")
    _order_set_built_lists(fake)
    provider = next(
        p for p in fake.get_providers() if type(p).__module__ == "faker.providers.address.it_IT"
    )
    assert provider.cities == sorted(provider.cities)
    assert len(provider.cities) > 1000


def test_global_random_state_is_put_back() -> None:
    import random

    from bench.corpus import generate_corpus

    random.seed(3)
    expected = random.random()
    random.seed(3)
    generate_corpus(3, 1)
    assert random.random() == expected
