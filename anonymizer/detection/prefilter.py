"""One shared pass over the text that tells each regex rule where it can match.

Python's `re` runs one rule at a time, so a rule table costs one scan of the text per rule.
This module turns each rule's pattern into a *superset* pattern that Hyperscan (a maintained
multi-pattern engine, no lookarounds) can run: lookarounds and anchors are dropped, atomic and
possessive parts become plain ones, a back-reference becomes its group, and every character
class is reduced to the ASCII characters it matches plus '?' where it matches any non-ASCII
character. The text is scanned once as `text.encode("ascii", "replace")` (every non-ASCII
character becomes one '?', so byte offsets are character offsets), in overlapping blocks,
and each block reports which superset patterns occur in it. A rule then runs with Python's
`re` only from the blocks that reported it (`gated_finditer`), which gives exactly the
matches of `pattern.finditer(text)`: any match of the rule is an occurrence of its superset
pattern inside the block where it starts, and the scan of a region reads far enough past the
region that a match starting in it is decided as in the whole text.

Hyperscan is optional (x86-64 wheels only): without it every rule runs over the whole text,
with the same detections.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

try:  # pragma: no cover - exercised where the wheel exists (x86-64)
    import hyperscan
except ImportError:  # pragma: no cover
    hyperscan = None

BLOCK = 1024  # characters per block (a block reports the patterns that occur in it)
OVERLAP = 512  # a pattern whose match attempts read further than this is not gated
LONG_REPEAT = 16  # a repeat bounded above this is left unbounded in a superset
RUN_LIMIT = 64  # a run this long of a class some pattern repeats without bound ungates it
PLACEHOLDER = ord("?")  # what `str.encode("ascii", "replace")` writes for a non-ASCII char
Region = tuple[int, int]

_SINGLE_CHAR = {sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN}


class NotConvertible(ValueError):
    """The pattern uses something the superset translation does not handle."""


@dataclass(frozen=True)
class Superset:
    """A rule pattern's Hyperscan superset: `source` over the ASCII-replaced text; `runs`, the
    classes it repeats without bound (as Hyperscan sources); `reach`, how far past a start
    position a match attempt may read while no run of those classes is `RUN_LIMIT` long."""

    source: bytes
    runs: frozenset[bytes]
    reach: int


def superset_pattern(pattern: re.Pattern[str]) -> Superset:
    """The superset of `pattern` (see the module docstring); NotConvertible when there is
    none worth having (an empty match, a match that may exceed `OVERLAP`)."""
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    if parsed.getwidth()[0] == 0:
        raise NotConvertible("the pattern can match the empty string")
    translator = _Translator(parsed.state)
    source = translator.sequence(parsed.data, parsed.state.flags)
    reach = _reach(parsed.data)
    if reach > OVERLAP:
        raise NotConvertible(f"a match may read {reach} characters, more than {OVERLAP}")
    runs = frozenset(run.encode("ascii") for run in translator.runs)
    return Superset(source.encode("ascii"), runs, reach)


class _Translator:
    def __init__(self, state: Any) -> None:
        self.state = state
        self.groups: dict[int, str] = {}
        self.runs: set[str] = set()  # classes repeated without bound

    def sequence(self, items: Iterable[tuple[Any, Any]], flags: int) -> str:
        return "".join(self.item(op, av, flags) for op, av in items)

    def item(self, op: Any, av: Any, flags: int) -> str:
        if op in _SINGLE_CHAR:
            return _byte_class(self.state, op, av, flags)
        if op is sre.BRANCH:
            return "(?:" + "|".join(self.sequence(alt, flags) for alt in av[1]) + ")"
        if op is sre.SUBPATTERN:
            group, add_flags, del_flags, body = av
            inner = self.sequence(body, (flags | add_flags) & ~del_flags)
            if group is not None:
                self.groups[group] = inner
            return f"(?:{inner})"
        if op is sre.ATOMIC_GROUP:
            return f"(?:{self.sequence(av, flags)})"
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = av
            inner = self.sequence(body, flags)
            if high is not sre.MAXREPEAT:
                # a long bounded repeat compiles slowly; without its bound it is a superset
                bound = high if high <= LONG_REPEAT else ""
                return f"(?:{inner}){{{low},{bound}}}"
            if len(body) != 1 or body[0][0] not in _SINGLE_CHAR:
                raise NotConvertible("unbounded repeat of more than one character")
            self.runs.add(inner)
            return f"(?:{inner}){{{low},}}"
        if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):
            return ""  # zero-width: dropping it can only add matches
        if op is sre.GROUPREF:
            if av not in self.groups:
                raise NotConvertible("back-reference to a group not seen yet")
            return f"(?:{self.groups[av]})"
        if op is sre.GROUPREF_EXISTS:
            group, yes, no = av
            parts = [self.sequence(yes, flags), self.sequence(no or [], flags)]
            return "(?:" + "|".join(parts) + ")"
        raise NotConvertible(f"unsupported regex operation {op}")


def _byte_class(state: Any, op: Any, av: Any, flags: int) -> str:
    members = _members(state, op, av, flags)
    if not members:
        raise NotConvertible("a character class that matches nothing")
    return "[" + "".join(f"\\x{b:02x}" for b in members) + "]"


_MEMBER_CACHE: dict[tuple[str, int], tuple[int, ...]] = {}


def _members(state: Any, op: Any, av: Any, flags: int) -> tuple[int, ...]:
    """The bytes (ASCII, and '?' for any non-ASCII character) that one character matches."""
    key = (repr((op, av)), flags)
    if key not in _MEMBER_CACHE:
        from re import _compiler  # type: ignore[attr-defined]

        one = _compiler.compile(_parser.SubPattern(state, [(op, av)]), flags)
        members = {c for c in range(128) if one.fullmatch(chr(c))}
        if _may_match_non_ascii(op, av, flags):
            members.add(PLACEHOLDER)
        _MEMBER_CACHE[key] = tuple(sorted(members))
    return _MEMBER_CACHE[key]


def _may_match_non_ascii(op: Any, av: Any, flags: int) -> bool:
    """Whether a character outside ASCII may match (True when unsure)."""
    caseless = bool(flags & re.IGNORECASE)
    if op is sre.LITERAL:
        return av >= 128 or (caseless and chr(av).isalpha())
    if op is not sre.IN:
        return True  # NOT_LITERAL, ANY
    for kind, value in av:
        if kind is sre.LITERAL and (value >= 128 or (caseless and chr(value).isalpha())):
            return True
        if kind is sre.RANGE and (value[1] >= 128 or (caseless and _has_letter(*value))):
            return True
        if kind not in (sre.LITERAL, sre.RANGE):
            return True  # NEGATE, CATEGORY
    return False


def _has_letter(low: int, high: int) -> bool:
    return any(chr(c).isalpha() for c in range(low, min(high, 127) + 1))


def _reach(items: Sequence[tuple[Any, Any]], groups: dict[int, int] | None = None) -> int:
    """An upper bound on how far past its start a match attempt may read: consumed
    characters, lookaheads, and one character for a word-boundary or end test."""
    groups = {} if groups is None else groups
    total = 0
    for op, av in items:
        if op in _SINGLE_CHAR or op is sre.AT:
            total += 1
        elif op is sre.BRANCH:
            total += max((_reach(alt, groups) for alt in av[1]), default=0)
        elif op is sre.SUBPATTERN:
            inner = _reach(av[3], groups)
            if av[0] is not None:
                groups[av[0]] = inner
            total += inner
        elif op is sre.ATOMIC_GROUP:
            total += _reach(av, groups)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            high = RUN_LIMIT - 1 if av[1] is sre.MAXREPEAT else av[1]
            total += high * _reach(av[2], groups)
        elif op is sre.ASSERT or op is sre.ASSERT_NOT:
            if av[0] == 1:  # a lookahead reads ahead; a lookbehind reads what lies before
                total += _reach(av[1], groups)
        elif op is sre.GROUPREF:
            total += groups[av]
        elif op is sre.GROUPREF_EXISTS:
            total += max(_reach(av[1], groups), _reach(av[2] or [], groups))
        else:
            raise NotConvertible(f"unsupported regex operation {op}")
    return total


class Prefilter:
    """The superset patterns of many rule patterns, run together over a text in blocks."""

    def __init__(self, patterns: Iterable[re.Pattern[str]]) -> None:
        self.supersets: dict[re.Pattern[str], Superset] = {}
        for pattern in dict.fromkeys(patterns):
            try:
                self.supersets[pattern] = superset_pattern(pattern)
            except NotConvertible:
                continue
        self.database = _database(self.supersets.values()) if hyperscan is not None else None
        self._local = threading.local()

    def gates(self, text: str) -> Gates:
        """Where in `text` each gated pattern may start a match (see `Gates`)."""
        if self.database is None:
            return Gates(self, {}, len(text), active=False)
        database, ids = self.database
        data = text.encode("ascii", "replace")
        fired: dict[int, list[int]] = {}
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(database)

        def on_match(pattern_id: int, start: int, end: int, flags: int, block: int) -> None:
            fired.setdefault(pattern_id, []).append(block)

        for block, offset in enumerate(range(0, len(data), BLOCK)):
            database.scan(
                data[offset : offset + BLOCK + OVERLAP],
                match_event_handler=on_match,
                context=block,
                scratch=scratch,
            )
        return Gates(self, {source: fired.get(i, []) for source, i in ids.items()}, len(text))


class Gates:
    """The blocks of one text in which each superset (and each run sentinel) occurred."""

    def __init__(
        self, prefilter: Prefilter, fired: dict[bytes, list[int]], size: int, active: bool = True
    ) -> None:
        self.prefilter = prefilter
        self.fired = fired
        self.size = size
        self.active = active

    def regions(self, pattern: re.Pattern[str]) -> list[Region] | None:
        """Start regions covering every offset where `pattern` can match, or None when the
        pattern must run over the whole text."""
        superset = self.prefilter.supersets.get(pattern)
        if not self.active or superset is None:
            return None
        if any(self.fired[_run_sentinel(run)] for run in superset.runs):
            return None
        merged: list[list[int]] = []
        for block in self.fired[superset.source]:
            low = block * BLOCK
            if merged and merged[-1][1] >= low:
                merged[-1][1] = low + BLOCK
            else:
                merged.append([low, low + BLOCK])
        return [(low, min(high, self.size)) for low, high in merged]

    def finditer(self, pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
        """Exactly `pattern.finditer(text)`, searching only the regions where it can match."""
        regions = self.regions(pattern)
        if regions is None:
            yield from pattern.finditer(text)
            return
        reach = self.prefilter.supersets[pattern].reach
        yield from gated_finditer(pattern, text, regions, reach)


def gated_finditer(
    pattern: re.Pattern[str], text: str, regions: Sequence[Region], reach: int
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` when every match starts inside one of `regions` (sorted,
    disjoint) and no match attempt reads more than `reach` characters past its start.

    Each region is searched with the text cut `reach` characters past the region's end, so a
    match attempt from inside the region reads exactly what it would read in the whole text.
    """
    last_end = 0
    for low, high in regions:
        if high <= last_end:
            continue
        for match in pattern.finditer(text, max(low, last_end), high + reach + 2):
            if match.start() >= high:
                break
            last_end = match.end()
            yield match


def _run_sentinel(run: bytes) -> bytes:
    return b"(?:" + run + b"){%d}" % RUN_LIMIT


def _database(supersets: Iterable[Superset]) -> tuple[Any, dict[bytes, int]]:
    """One Hyperscan block-mode database of every superset and run sentinel, by source."""
    sources: dict[bytes, int] = {}
    for superset in supersets:
        sources.setdefault(superset.source, len(sources))
        for run in superset.runs:
            sources.setdefault(_run_sentinel(run), len(sources))
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    expressions = list(sources)
    database.compile(
        expressions=expressions,
        ids=list(range(len(expressions))),
        elements=len(expressions),
        flags=[hyperscan.HS_FLAG_SINGLEMATCH] * len(expressions),
    )
    return database, sources
