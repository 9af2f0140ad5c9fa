"""One shared pass over the text that tells each regex rule where it can match.

Python's `re` runs one rule at a time, so a rule table costs one scan of the text per rule,
and most rules use lookarounds, which multi-pattern engines cannot run. So each rule's
pattern gets a *superset* that Hyperscan (a maintained multi-pattern engine) can run: the
longest leading part of the pattern whose matches fit in `OVERLAP` characters, with
lookarounds and anchors dropped (a leading line start and a leading one-character
lookbehind are kept in a form Hyperscan has), atomic and possessive parts made plain, a
back-reference replaced by its group, and every character class reduced to the ASCII
characters it matches plus '?' where it may match a non-ASCII character (a caseless i, k or
s may: 'İ', 'ı', 'K', 'ſ'; other caseless ASCII letters may not). Hyperscan reads
`text.encode("ascii", "replace")`, where every non-ASCII character is one '?', so byte
offsets are character offsets.

Per text: one pass over overlapping blocks says which supersets occur in which block; a rule
whose superset occurs nowhere is skipped. Where it occurs rarely, the blocks are scanned
backwards with the reversed superset (slices of one reversed copy of the text, nearby blocks
in one call), which reports every offset where an occurrence starts, and the rule's own
pattern is tried there (`Pattern.match`); where it occurs often,
the rule's pattern searches those blocks (`gated_finditer`). Both give exactly the matches
of `pattern.finditer(text)`: a match is an occurrence of its superset, starting in the block
where the match starts, and a search of a region reads far enough past it that a match
starting inside is decided as in the whole text. `Gates.finditer_in_windows` does the same
for a rule run in its trigger's windows. A long run of a repeated class (which may stretch
an occurrence past a block's overlap) switches a rule to its short superset, or, where it has
none, to a backward scan of the whole text with the long one.

Hyperscan is optional (x86-64 wheels only): without it every rule runs over the whole text,
with the same detections.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser  # type: ignore[attr-defined]
from typing import Any

try:  # pragma: no cover - exercised where the wheel exists (x86-64)
    import hyperscan
except ImportError:  # pragma: no cover
    hyperscan = None

BLOCK = 16_384  # characters per block (a block reports the patterns that occur in it); fewer,
# longer blocks cost less per text (one scan call and one report per pattern a block, overlaps
# read twice) than the wider regions they give cost the gated rules: 4096 took 1.07x as long
OVERLAP = 512  # the longest occurrence of a superset (blocks overlap by this much)
MAX_REACH = 20_000  # a pattern whose match attempts may read further runs unrestricted
LONG_REPEAT = 16  # a repeat bounded above this is left unbounded in a superset
RUN_LIMIT = 64  # a run this long of a class some pattern repeats without bound ungates it
SPARSE = 20  # a superset starting less often than once per this many characters is sparse
SLACK = 64  # starts allowed beyond that rate (short texts)
MIN_START_SCAN = 4096  # regions spanning less are searched with `re` (a scan call costs more)
MIN_ASCII = 2  # a literal with fewer ASCII characters is found with `str.find`
MERGE_GAP = 16_384  # regions closer than this are scanned backwards in one call
PLACEHOLDER = ord("?")  # what `str.encode("ascii", "replace")` writes for a non-ASCII char
Region = tuple[int, int]
_END = 1 << 62

_SINGLE_CHAR = {sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT}
_LINE_START = {sre.AT_BEGINNING, sre.AT_BEGINNING_LINE, sre.AT_BEGINNING_STRING}


def hyperscan_available() -> bool:
    """Whether the Hyperscan wheel is installed (x86-64); without it no pass gates anything."""
    return hyperscan is not None


class NotConvertible(ValueError):
    """The pattern uses something the superset translation does not handle."""


@dataclass(frozen=True)
class Superset:
    """A rule pattern's Hyperscan supersets (over the ASCII-replaced text), each as a pair of
    sources: forward, and of the reversed strings (to find where occurrences start).

    `runs` are the classes the pattern repeats without bound; while no run of them is
    `RUN_LIMIT` long in a text, the `long` version holds and a match attempt reads at most
    `reach` characters (None: no bound); otherwise the rule runs over the whole text. The
    `short` version, used where there is no long one, stops before the first unbounded
    repeat and holds in any text. Either may be None (no usable leading part).
    """

    long: tuple[bytes, Backward] | None
    short: tuple[bytes, Backward] | None
    runs: frozenset[bytes]
    reach: int | None


def superset_pattern(pattern: re.Pattern[str]) -> Superset:
    """The supersets of `pattern` (see the module docstring), or NotConvertible.

    A superset covers the longest leading part of the pattern whose matches are at most
    `OVERLAP` characters long (ending with what a positive lookahead there requires), so that
    an occurrence lies inside the block where the rule's match starts.
    """
    parsed = _parser.parse(pattern.pattern, pattern.flags)
    reach = _bounded_reach(parsed.data)
    whole = _Translator(parsed.state)
    whole.sequence(parsed.data, parsed.state.flags)  # every construct is supported
    long, short = (_leading_part(parsed, keep_runs) for keep_runs in (True, False))
    if long is None and short is None:
        raise NotConvertible("no leading part of the pattern is both short and non-empty")
    runs = frozenset(run.encode("ascii") for run in whole.runs)
    return Superset(long, short, runs, reach)


Backward = tuple[tuple[bytes, int], ...]  # reversed sources, each with its start shift


def _leading_part(parsed: Any, keep_runs: bool) -> tuple[bytes, Backward] | None:
    """Forward and backward sources of the pattern's longest usable leading part; with
    `keep_runs` false it stops at the first unbounded repeat (keeping its first rounds)."""
    items = _flatten(parsed.data)
    # a leading line start stays: a line start (or a block's start) in Hyperscan's multi-line
    # mode; anchors elsewhere are dropped (Hyperscan refuses embedded ones)
    line_start = bool(items) and items[0][0] is sre.AT and items[0][1] in _LINE_START
    taken = _prefix(parsed.state, items[line_start:], [], keep_runs)
    if _parser.SubPattern(parsed.state, taken).getwidth()[0] == 0:
        return None
    sources = []
    for reverse in (False, True):
        translator = _Translator(parsed.state, reverse)
        translator.sequence(parsed.data, parsed.state.flags)  # the groups, for back-references
        source = translator.sequence(taken, parsed.state.flags)
        if line_start:
            source = source + "$" if reverse else "^" + source
        sources.append(source)
    forward, backward = sources
    before = None if line_start else _allowed_before(parsed.state, items, parsed.state.flags)
    if before is None:
        return forward.encode("ascii"), ((backward.encode("ascii"), 0),)
    # read backwards, a start is followed by a character the lookbehind allows (consumed:
    # the start is one character before the reported end) or by the slice's end or a newline
    return forward.encode("ascii"), (
        (f"{backward}{before}".encode("ascii"), 1),
        (f"{backward}$".encode("ascii"), 0),
    )


def _prefix(
    state: Any, items: Sequence[tuple[Any, Any]], before: list[tuple[Any, Any]], keep_runs: bool
) -> list[tuple[Any, Any]]:
    """The longest leading part of `items` that, after `before`, still `_fits`: a group or
    alternation too wide as a whole is cut inside, a wide repeat keeps its first rounds, a
    positive lookahead ends it with what it requires."""
    taken: list[tuple[Any, Any]] = []
    pending = list(items)
    while pending:
        op, av = pending.pop(0)
        whole = [*before, *taken, (op, av)]
        if op is sre.SUBPATTERN and av[1] == av[2] == 0 and not _fits(whole):
            pending[:0] = av[3]  # its leading items may fit
            continue
        if op is sre.BRANCH and not _fits(whole):
            cut = [
                _parser.SubPattern(state, _prefix(state, alt, [*before, *taken], keep_runs))
                for alt in av[1]
            ]
            taken.append((op, (None, cut)))  # each alternative cut where it stops fitting
            break
        if op is sre.ASSERT and av[0] == 1:  # what follows must match the lookahead
            if _fits([*before, *taken, *av[1]]):
                taken += av[1]
            break
        unbounded = op in _REPEATS and av[1] is sre.MAXREPEAT
        if (unbounded and not keep_runs) or not _fits(whole):
            if op in _REPEATS and av[0]:  # every match has at least its first `low` rounds
                bounded = (op, (av[0], av[0], av[2]))
                if _fits([*before, *taken, bounded]):
                    taken.append(bounded)
            break
        taken.append((op, av))
    return taken


def _allowed_before(state: Any, items: Sequence[tuple[Any, Any]], flags: int) -> str | None:
    """For a pattern that starts with a one-character negative lookbehind (`(?<!C)X` or, as
    `_first` in regex.py writes it, `X(?<!C.)`), a Hyperscan class of the characters that may
    stand before a match; None for other patterns."""
    guard = None
    if items and items[0][0] is sre.ASSERT_NOT and items[0][1][0] == -1:
        body = list(items[0][1][1])
        if len(body) == 1 and body[0][0] in _SINGLE_CHAR:
            guard = body[0]
    elif len(items) > 1 and items[0][0] in _SINGLE_CHAR:
        op, av = items[1]
        body = list(av[1]) if op is sre.ASSERT_NOT and av[0] == -1 else []
        if len(body) == 2 and body[0][0] in _SINGLE_CHAR and body[1][0] is sre.ANY:
            first = _members(state, *items[0], flags)
            if flags & re.DOTALL or ord("\n") not in first:  # `.` then always matches X
                guard = body[0]
    if guard is None:
        return None
    refused = set(_members(state, *guard, flags)) - {PLACEHOLDER}  # '?': any non-ASCII too
    return "[" + "".join(f"\\x{b:02x}" for b in range(128) if b not in refused) + "]"


def opens_with_word_boundary(pattern: re.Pattern[str]) -> bool:
    """Whether every match of `pattern` that starts with a word character starts where no
    word character stands before it: every alternative opens with `\\b`, or with a
    one-character negative lookbehind refusing every word character (`(?<![\\w@])`)."""
    if pattern.flags & (re.ASCII | re.LOCALE):
        return False
    return _opens_with_boundary(list(_parser.parse(pattern.pattern, pattern.flags).data))


def _opens_with_boundary(items: Sequence[tuple[Any, Any]]) -> bool:
    if not items:
        return False
    op, av = items[0]
    if op is sre.SUBPATTERN:
        return not av[1] & (re.ASCII | re.LOCALE) and _opens_with_boundary(list(av[3]))
    if op is sre.BRANCH:
        return all(_opens_with_boundary(list(alt)) for alt in av[1])
    if op is sre.AT:
        return av is sre.AT_BOUNDARY
    if op is sre.ASSERT_NOT and av[0] == -1 and len(av[1]) == 1:
        (kind, members), *_ = list(av[1])
        refused = members if kind is sre.IN else []
        return (sre.CATEGORY, sre.CATEGORY_WORD) in refused and (sre.NEGATE, None) not in refused
    return False


def _flatten(items: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The top-level items, with the body of a leading capture group (no flags) spliced in."""
    flat: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is sre.SUBPATTERN and av[1] == av[2] == 0 and not flat:
            flat += _flatten(av[3])
        else:
            flat.append((op, av))
    return flat


class _Translator:
    """Python regex parse tree -> Hyperscan source of a superset; `reverse`: of the reversed
    strings (to find where matches start by scanning the reversed text)."""

    def __init__(self, state: Any, reverse: bool = False) -> None:
        self.state = state
        self.reverse = reverse
        self.groups: dict[int, tuple[str, int]] = {}  # group -> (source, its flags)
        self.runs: set[str] = set()  # classes repeated without bound

    def sequence(self, items: Iterable[tuple[Any, Any]], flags: int) -> str:
        parts = [self.item(op, av, flags) for op, av in items]
        return "".join(reversed(parts) if self.reverse else parts)

    def item(self, op: Any, av: Any, flags: int) -> str:
        if op in _SINGLE_CHAR:
            return _byte_class(self.state, op, av, flags)
        if op is sre.BRANCH:
            return "(?:" + "|".join(self.sequence(alt, flags) for alt in av[1]) + ")"
        if op is sre.SUBPATTERN:
            group, add_flags, del_flags, body = av
            inner = self.sequence(body, (flags | add_flags) & ~del_flags)
            if group is not None:
                self.groups[group] = (inner, (flags | add_flags) & ~del_flags)
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
            if len(body) == 1 and body[0][0] in _SINGLE_CHAR:
                self.runs.add(inner)
            return f"(?:{inner}){{{low},}}"
        if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):
            return ""  # zero-width: dropping it can only add matches
        if op is sre.GROUPREF:
            if av not in self.groups:
                raise NotConvertible("back-reference to a group not seen yet")
            inner, group_flags = self.groups[av]
            if flags & re.IGNORECASE and not group_flags & re.IGNORECASE:
                raise NotConvertible("case-insensitive back-reference to a case-sensitive group")
            return f"(?:{inner})"
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
        if _may_match_non_ascii(op, av, flags, one):
            members.add(PLACEHOLDER)
        _MEMBER_CACHE[key] = tuple(sorted(members))
    return _MEMBER_CACHE[key]


# The non-ASCII characters that a case-insensitive pattern matches with an ASCII letter
# ('İ' and 'ı' with i, 'ſ' with s, the Kelvin sign with k; the test checks all of Unicode).
CASE_PARTNERS = "\u0130\u0131\u017f\u212a"


def _may_match_non_ascii(op: Any, av: Any, flags: int, one: re.Pattern[str]) -> bool:
    """Whether a character outside ASCII may match (True when unsure); `one` is the compiled
    single-character pattern."""
    if op is sre.LITERAL:
        if av >= 128:
            return True
    elif op is not sre.IN:
        return True  # NOT_LITERAL, ANY
    else:
        for kind, value in av:
            if kind is sre.LITERAL and value >= 128:
                return True
            if kind is sre.RANGE and value[1] >= 128:
                return True
            if kind not in (sre.LITERAL, sre.RANGE):
                return True  # NEGATE, CATEGORY
    return bool(flags & re.IGNORECASE) and any(one.fullmatch(c) for c in CASE_PARTNERS)


def _fits(items: Sequence[tuple[Any, Any]]) -> bool:
    """Whether these items' matches are at most `OVERLAP` long while runs are short."""
    try:
        return _reach(items) <= OVERLAP
    except NotConvertible:  # an unbounded repeat of more than one character
        return False


def _bounded_reach(items: Sequence[tuple[Any, Any]]) -> int | None:
    """`_reach` of a whole pattern, or None where it has no useful bound."""
    try:
        reach = _reach(items)
    except NotConvertible:
        return None
    return reach if reach <= MAX_REACH else None


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
            if av[1] is sre.MAXREPEAT and (len(av[2]) != 1 or av[2][0][0] not in _SINGLE_CHAR):
                raise NotConvertible("unbounded repeat of more than one character")
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


@dataclass(frozen=True)
class _Plan:
    """A superset version's id in the block database and its backward sources."""

    id: int
    backward: Backward


class Prefilter:
    """The superset patterns of many rule patterns, run together over a text in blocks."""

    def __init__(self, patterns: Iterable[re.Pattern[str]], block: int = BLOCK) -> None:
        self.block = block
        self._backwards: dict[Backward, Any] = {}  # reversed supersets' databases, built on use
        self._lock = threading.Lock()
        self._local = threading.local()
        self.supersets: dict[re.Pattern[str], Superset] = {}
        for pattern in dict.fromkeys(patterns):
            try:
                self.supersets[pattern] = superset_pattern(pattern)
            except NotConvertible:
                continue
        try:
            self._build()
        except Exception as error:  # hyperscan.error; kept broad as hyperscan may be None
            if hyperscan is None or not isinstance(error, hyperscan.error):
                raise
            self.supersets = {  # a pattern Hyperscan refuses runs over the whole text
                pattern: superset
                for pattern, superset in self.supersets.items()
                if _compiles(superset)
            }
            self._build()

    def _build(self) -> None:
        """The ids of every superset and run sentinel, and the database holding them."""
        sources: dict[bytes, int] = {}  # Hyperscan source -> its id in the database

        def plan(version: tuple[bytes, Backward] | None) -> _Plan | None:
            if version is None:
                return None
            return _Plan(sources.setdefault(version[0], len(sources)), version[1])

        # id(pattern) -> (long plan, short plan, run sentinel ids, reach), by identity because
        # hashing a compiled pattern hashes its whole code
        self.ids: dict[int, tuple[_Plan | None, _Plan | None, tuple[int, ...], int | None]] = {}
        for pattern, superset in self.supersets.items():
            short = superset.short if superset.long is None else None  # only where no long
            self.ids[id(pattern)] = (
                plan(superset.long),
                plan(short),
                tuple(sources.setdefault(_run_sentinel(r), len(sources)) for r in superset.runs),
                superset.reach,
            )
        self.database = _database(list(sources)) if hyperscan is not None and sources else None

    def gates(self, text: str) -> Gates:
        """Where in `text` each gated pattern may start a match (see `Gates`)."""
        if self.database is None:
            return Gates(self, None, b"")
        fired: dict[int, list[int]] = {}
        scratch = self._scratch(self.database)

        def on_match(pattern_id: int, start: int, end: int, flags: int, block: int) -> None:
            if pattern_id in fired:
                fired[pattern_id].append(block)
            else:
                fired[pattern_id] = [block]

        data = text.encode("ascii", "replace")
        step, scan = self.block, self.database.scan
        for block, offset in enumerate(range(0, len(data), step)):
            scan(data[offset : offset + step + OVERLAP], on_match, context=block, scratch=scratch)
        return Gates(self, fired, data)

    def gate_ids(self, pattern: re.Pattern[str]) -> tuple[int, ...] | None:
        """Ids in the block pass of which one fires in every text where `pattern` can match
        (its superset or one of its run sentinels); None when the pattern is not gated."""
        ids = self.ids.get(id(pattern))
        if self.database is None or ids is None:
            return None
        long, short, run_ids, _ = ids
        plan = long or short
        assert plan is not None
        return (plan.id, *run_ids)

    def prepare(self) -> None:
        """Build every reversed superset's database now (about 1 s for all), so that no
        document pays for one when a worker warms up before its first job."""
        for plans in self.ids.values():
            for plan in plans[:2]:
                if plan is not None:
                    self._backward_database(plan.backward)

    def _backward_database(self, backward: Backward) -> Any:
        """The database of a reversed superset, built on first use (None if refused)."""
        with self._lock:
            if backward not in self._backwards:
                try:
                    sources = [source for source, _ in backward]
                    self._backwards[backward] = _database(sources, single=False)
                except hyperscan.error:
                    self._backwards[backward] = None
        return self._backwards[backward]

    def starts(
        self, backward: Backward, reversed_data: bytes, regions: Sequence[Region]
    ) -> list[int] | None:
        """Every offset inside `regions` where an occurrence of the pattern's superset starts,
        in order, found by scanning the reversed text (`reversed_data`: the ASCII-replaced
        text reversed) over the regions; None when there are more than one per `SPARSE`
        characters (then searching the regions with `re` is cheaper)."""
        database = self._backward_database(backward)
        if database is None:
            return None
        scratch = self._scratch(database)
        size = len(reversed_data)
        spans = _scan_spans(regions, size)
        limit = SLACK + sum(stop - low for low, stop, _ in spans) // SPARSE
        ends: list[int] = []  # end offsets in a reversed slice = start offsets
        append = ends.append
        unique_ends = len(backward) == 1  # Hyperscan reports an end once per pattern
        if unique_ends and not backward[0][1]:

            def on_match(index: int, start: int, end: int, flags: int, context: None) -> bool:
                append(end)
                return len(ends) > limit  # dense: give up

        else:
            shifts = [shift for _, shift in backward]

            def on_match(index: int, start: int, end: int, flags: int, context: None) -> bool:
                append(end - shifts[index])
                return len(ends) > limit

        found: list[int] = []
        for low, stop, high in spans:
            first = len(ends)
            try:
                database.scan(reversed_data[size - stop : size - low], on_match, scratch=scratch)
            except hyperscan.ScanTerminated:
                return None
            starts = sorted([stop - end for end in ends[first:]])  # descending ends: cheap
            if unique_ends:
                found.extend(start for start in starts if start < high)
            else:  # two sources may report the same start
                found.extend(sorted({start for start in starts if start < high}))
        return found

    def _scratch(self, database: Any) -> Any:
        """This thread's scratch space for `database` (Hyperscan's is not thread-safe)."""
        scratches = getattr(self._local, "scratches", None)
        if scratches is None:
            scratches = self._local.scratches = {}
        if id(database) not in scratches:
            scratches[id(database)] = hyperscan.Scratch(database)
        return scratches[id(database)]


class Gates:
    """The blocks of one text in which each superset (and each run sentinel) occurred
    (`fired` is None when there was no prefilter pass: every rule runs everywhere)."""

    def __init__(
        self, prefilter: Prefilter, fired: dict[int, list[int]] | None, data: bytes
    ) -> None:
        self.prefilter = prefilter
        self.fired = fired
        self.data = data
        self.size = len(data)
        self._reversed: bytes | None = None

    @property
    def reversed_data(self) -> bytes:
        """The ASCII-replaced text reversed, made once per text (for the backward scans)."""
        if self._reversed is None:
            self._reversed = self.data[::-1]
        return self._reversed

    def _version(self, pattern: re.Pattern[str]) -> tuple[int | None, Backward, int | None] | None:
        """The superset that holds for `pattern` in this text: (its id in the block pass, or
        None when its occurrences may be longer than a block's overlap so that the whole text
        is its region; its backward source; the reach of a match attempt, None when
        unbounded); None: no prefilter, or no superset that holds."""
        ids = self.prefilter.ids.get(id(pattern))
        if self.fired is None or ids is None:
            return None
        long, short, run_ids, reach = ids
        if not run_ids or not any(run in self.fired for run in run_ids):
            plan = long or short
            assert plan is not None
            return plan.id, plan.backward, reach
        if short is not None:
            return short.id, short.backward, None
        # a long run: the long superset still holds, but the block pass may have missed it
        return None if long is None else (None, long.backward, None)

    def regions(self, pattern: re.Pattern[str]) -> list[Region] | None:
        """Start regions covering every offset where `pattern` can match, or None when the
        pattern must run over the whole text."""
        version = self._version(pattern)
        return None if version is None else self._regions(version[0])

    def _regions(self, superset_id: int | None) -> list[Region]:
        assert self.fired is not None
        if superset_id is None:
            return [(0, self.size)] if self.size else []
        step = self.prefilter.block
        merged: list[list[int]] = []
        for block in self.fired.get(superset_id, ()):
            low = block * step
            if merged and merged[-1][1] >= low:
                merged[-1][1] = low + step
            else:
                merged.append([low, low + step])
        return [(low, min(high, self.size)) for low, high in merged]

    def matches(self, pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
        """Exactly the matches of `pattern.finditer(text)`: tried only where the pattern's
        superset starts when that is rare, else searched only in the blocks where it occurs."""
        version = self._version(pattern)
        if version is None:
            return list(pattern.finditer(text))
        superset_id, backward, reach = version
        if superset_id is not None and superset_id not in (self.fired or {}):
            return []
        regions = self._regions(superset_id)
        if not regions:
            return []
        if regions[-1][1] - regions[0][0] < MIN_START_SCAN:  # short: `re` costs less
            return list(gated_finditer(pattern, text, regions, reach))
        starts = self.prefilter.starts(backward, self.reversed_data, regions)
        if starts is None:
            return list(gated_finditer(pattern, text, regions, reach))
        found = []
        last_end = 0
        match_at = pattern.match
        for start in starts:
            if start >= last_end:
                match = match_at(text, start)
                if match is not None:
                    found.append(match)
                    last_end = match.end()
        return found

    def finditer_in_windows(
        self, pattern: re.Pattern[str], text: str, windows: Iterable[Region]
    ) -> Iterator[re.Match[str]]:
        """Exactly what `pattern.finditer(text, low, high)` gives over the sorted, disjoint
        `windows`, less the matches that start before the end of an earlier one (a rule
        run around its trigger), searching only where the pattern can match."""
        version = self._version(pattern)
        regions = None if version is None else self._regions(version[0])
        reach = None if version is None else version[2]
        starts = None
        if version is not None and regions and regions[-1][1] - regions[0][0] >= MIN_START_SCAN:
            starts = self.prefilter.starts(version[1], self.reversed_data, regions)
        last_end = 0
        for low, high in windows:
            if regions is None:
                matches: Iterable[re.Match[str]] = pattern.finditer(text, low, high)
            elif starts is not None:
                matches = _matches_from(pattern, text, low, high, starts)
            else:
                matches = _window_matches(pattern, text, low, high, regions, reach)
            for match in matches:
                if match.start() >= last_end:
                    last_end = max(match.end(), match.start() + 1)
                    yield match


def _matches_from(
    pattern: re.Pattern[str], text: str, low: int, high: int, starts: Sequence[int]
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text, low, high)`, when every match (in the text cut at `high`)
    starts at one of the sorted offsets `starts`."""
    position = low
    match_at = pattern.match
    for index in range(bisect_left(starts, low), len(starts)):
        start = starts[index]
        if start >= high:
            return
        if start >= position:
            match = match_at(text, start, high)
            if match is not None:
                position = match.end()
                yield match


def _window_matches(
    pattern: re.Pattern[str],
    text: str,
    low: int,
    high: int,
    regions: Sequence[Region],
    reach: int | None,
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text, low, high)`, when every match (in the text cut at `high`)
    starts inside one of `regions` and no attempt reads more than `reach` past its start
    (None: no bound known)."""
    position = low
    for index in range(bisect_right(regions, (low, _END)) - 1, len(regions)):
        if index < 0:
            continue
        region_low, region_high = regions[index]
        if region_low >= high:
            return
        start = max(position, region_low)
        if start >= min(region_high, high):
            continue
        cut = high if reach is None else min(high, region_high + reach + 2)
        for match in pattern.finditer(text, start, cut):
            if match.start() >= region_high:
                break
            position = match.end()
            yield match


def gated_finditer(
    pattern: re.Pattern[str], text: str, regions: Sequence[Region], reach: int | None
) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` when every match starts inside one of `regions` (sorted,
    disjoint) and no match attempt reads more than `reach` characters past its start.

    Each region is searched with the text cut `reach` characters past the region's end, so a
    match attempt from inside the region reads exactly what it would read in the whole text
    (with `reach` None, the text is not cut).
    """
    last_end = 0
    size = len(text)
    for low, high in regions:
        if high <= last_end:
            continue
        cut = size if reach is None else high + reach + 2
        for match in pattern.finditer(text, max(low, last_end), cut):
            if match.start() >= high:
                break
            last_end = match.end()
            yield match


def _scan_spans(regions: Sequence[Region], size: int) -> list[tuple[int, int, int]]:
    """The stretches to scan backwards for starts inside `regions`: (low, stop, high), each
    covering regions from `low` to `high` and reading `OVERLAP` past them (to `stop`); regions
    less than `MERGE_GAP` apart share one stretch (a scan call costs more than the gap)."""
    spans: list[list[int]] = []
    for low, high in regions:
        if spans and low - spans[-1][2] < MERGE_GAP:
            spans[-1][2] = high
        else:
            spans.append([low, 0, high])
    return [(low, min(size, high + OVERLAP), high) for low, _, high in spans]


def _run_sentinel(run: bytes) -> bytes:
    return b"(?:" + run + b"){%d}" % RUN_LIMIT


def _compiles(superset: Superset) -> bool:
    """Whether Hyperscan compiles the superset's forward sources and run sentinels."""
    sources = [version[0] for version in (superset.long, superset.short) if version is not None]
    try:
        _database([*sources, *(_run_sentinel(run) for run in superset.runs)])
    except hyperscan.error:
        return False
    return True


def _database(sources: Sequence[bytes], single: bool = True) -> Any:
    """One Hyperscan block-mode database; a pattern's id is its index in `sources` (with
    `single`, each reports at most once per scanned block)."""
    flags = hyperscan.HS_FLAG_MULTILINE | (hyperscan.HS_FLAG_SINGLEMATCH if single else 0)
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    database.compile(
        expressions=list(sources),
        ids=list(range(len(sources))),
        elements=len(sources),
        flags=[flags] * len(sources),
    )
    return database


class LiteralScanner:
    """Every offset where one of many literals starts, in one Hyperscan pass over the
    ASCII-replaced text (None when Hyperscan is missing).

    A literal given with `word_start` true is only reported where no ASCII word character
    stands before it (a match opening with `\\b` starts nowhere else; a non-ASCII character
    before it may be a word character, and the caller's pattern decides there). A literal
    with non-ASCII characters is searched as its ASCII-replaced form ('?' for each such
    character) and each occurrence is checked against the text; one with fewer than
    `MIN_ASCII` other characters would match too often that way and is found with
    `str.find`."""

    def __init__(self, literals: Sequence[tuple[str, bool]]) -> None:
        self.literals = tuple(literals)
        keys = [(lit.encode("ascii", "replace"), word) for lit, word in self.literals]
        searched = [key for key in keys if len(key[0]) - key[0].count(PLACEHOLDER) >= MIN_ASCII]
        self.keys = list(dict.fromkeys(searched))  # distinct forms Hyperscan searches
        key_index = {key: index for index, key in enumerate(self.keys)}
        # searched form -> (literal index, whether its occurrences need a check) of each literal
        # searched that way; the others are found with `str.find`
        self.owners: dict[int, list[tuple[int, bool]]] = {}
        self.by_find: list[int] = []
        for index, key in enumerate(keys):
            if key in key_index:
                self.owners.setdefault(key_index[key], []).append((index, PLACEHOLDER in key[0]))
            else:
                self.by_find.append(index)
        # those of them with a non-ASCII character are found in one `re` pass over the text
        # for such characters (a `str.find` pass each cost more), grouped by their first
        # non-ASCII character and checked where it stands
        self.by_char: dict[str, list[tuple[int, int]]] = {}  # char -> (literal, its offset)
        for index in self.by_find:
            literal = self.literals[index][0]
            shift = next((i for i, char in enumerate(literal) if not char.isascii()), None)
            if shift is not None:
                self.by_char.setdefault(literal[shift], []).append((index, shift))
        self.by_find = [i for i in self.by_find if self.literals[i][0].isascii()]
        chars = "".join(map(re.escape, self.by_char))
        self.non_ascii_chars = re.compile(f"[{chars}]") if chars else None
        self.database = None
        if hyperscan is None or not self.keys:  # (none: the regex fallback finds them all)
            return
        self.database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        self.database.compile(
            expressions=[_literal_source(key, word) for key, word in self.keys],
            ids=list(range(len(self.keys))),
            elements=len(self.keys),
            flags=[0] * len(self.keys),
        )
        self._local = threading.local()

    def starts(self, text: str) -> dict[int, list[int]] | None:
        """Literal index -> the sorted offsets where it starts in `text` (only the literals
        that occur)."""
        if self.database is None:
            return None
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self.database)
        ends: defaultdict[int, list[int]] = defaultdict(list)

        def on_match(index: int, start: int, end: int, flags: int, context: None) -> None:
            ends[index].append(end)

        self.database.scan(
            text.encode("ascii", "replace"), match_event_handler=on_match, scratch=scratch
        )
        found: dict[int, list[int]] = {}
        for index in self.by_find:
            literal, word = self.literals[index]
            offsets = _find_all(text, literal)
            if word:
                offsets = [i for i in offsets if not i or not _is_ascii_word(text[i - 1])]
            if offsets:
                found[index] = offsets
        if self.non_ascii_chars is not None:
            self._find_by_char(text, found)
        for key, key_ends in ends.items():
            for index, check in self.owners[key]:
                literal = self.literals[index][0]
                offsets = sorted([end - len(literal) for end in key_ends])
                if check:
                    offsets = [offset for offset in offsets if text.startswith(literal, offset)]
                if offsets:
                    found[index] = offsets
        return found

    def _find_by_char(self, text: str, found: dict[int, list[int]]) -> None:
        """Add the offsets of the literals in `by_char` to `found`, in order."""
        assert self.non_ascii_chars is not None
        literals, by_char = self.literals, self.by_char
        for match in self.non_ascii_chars.finditer(text):
            at = match.start()
            for index, shift in by_char[match.group()]:
                offset = at - shift
                literal, word = literals[index]
                if (
                    offset >= 0
                    and text.startswith(literal, offset)
                    and (not word or not offset or not _is_ascii_word(text[offset - 1]))
                ):
                    found.setdefault(index, []).append(offset)


def _is_ascii_word(char: str) -> bool:
    """Whether `char` is an ASCII word character (`re`'s `\\w`)."""
    return char.isascii() and (char.isalnum() or char == "_")


def _literal_source(key: bytes, word_start: bool) -> bytes:
    """The Hyperscan source of a literal's searched form: its bytes, after a character that
    is no ASCII word character (or at the start) when `word_start`."""
    body = "".join(f"\\x{b:02x}" for b in key)
    if not word_start:
        return body.encode("ascii")
    before = "".join(f"\\x{b:02x}" for b in range(128) if not _is_ascii_word(chr(b)))
    return f"(?:^|[{before}]){body}".encode("ascii")


def _find_all(text: str, literal: str) -> list[int]:
    """Every offset where `literal` starts in `text`, in order."""
    offsets = []
    index = text.find(literal)
    while index >= 0:
        offsets.append(index)
        index = text.find(literal, index + 1)
    return offsets
