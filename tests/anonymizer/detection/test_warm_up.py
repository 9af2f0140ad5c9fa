"""Warming a detector up loads what its first jobs would otherwise load and compile."""

from anonymizer.detection import get_detector, line_language, warm_up
from anonymizer.detection.gazetteer import city_names, small_place_countries
from anonymizer.detection.names import known_names
from anonymizer.detection.prefilter import hyperscan
from anonymizer.detection.regex import RegexDetector

DOCUMENT = (
    "From: Jane Doe <jane.doe@example.org>\n"
    "Hallo zusammen, die Rechnung kommt morgen, bitte an Frau Schimanski weiterleiten.\n"
    "2024-05-02T11:42:17Z user=jdoe42 order_id=ORD-99812 ip=10.0.4.17 status=ok\n"
    "Call me on +44 7700 900123 or write to 14 Cherry Lane, Bristol BS1 4DJ.\n"
    "IBAN DE89 3704 0044 0532 0130 00, passport no. 533380006, NHS 943 476 5919.\n"
) * 3


def test_a_warmed_regex_detector_compiles_nothing_while_detecting() -> None:
    detector = RegexDetector()
    warm_up(detector)
    if hyperscan is None:
        assert detector.prefilter.database is None
        return
    built = dict(detector.prefilter._backwards)
    assert built  # the reversed databases exist before any document
    detector.detect(DOCUMENT)
    assert detector.prefilter._backwards == built


def test_the_default_detector_loads_its_word_lists_when_warmed() -> None:
    line_language._frequencies.cache_clear()
    known_names.cache_clear()
    city_names.cache_clear()
    small_place_countries.cache_clear()
    warm_up(get_detector("combined"))
    assert line_language._frequencies.cache_info().currsize == len(line_language.LANGUAGES)
    assert known_names.cache_info().currsize == 1
    assert city_names.cache_info().currsize == 1
    assert small_place_countries.cache_info().currsize == 1


class OnlyDetects:
    def __init__(self) -> None:
        self.seen: list[str] = []

    def detect(self, text: str) -> list:
        self.seen.append(text)
        return []


class WarmsItself(OnlyDetects):
    warmed = False

    def warm_up(self) -> None:
        self.warmed = True


def test_warm_up_uses_the_detectors_own_method_and_falls_back_to_one_detection() -> None:
    plain, own = OnlyDetects(), WarmsItself()
    warm_up(plain)
    warm_up(own)
    assert plain.seen == ["warm up"]
    assert own.warmed and own.seen == []
