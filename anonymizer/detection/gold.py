"""Gold spans as detections: benchmark and dataset annotations mapped onto our categories.

Datasets name their labels differently (`first_name`, `EMAIL_ADDRESS`, `street_address`,
`B-PER`...); `category_for_label` normalises them so that a gold run and a detector run
redact with the same placeholders.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from anonymizer.detection.categories import PLACEHOLDERS, placeholder_for
from anonymizer.types import Detection


def _labels(category: str, names: str) -> dict[str, str]:
    return {name: category for name in names.split()}


GOLD_LABELS: dict[str, str] = {
    **_labels(
        "full person name",
        "person per name full_name first_name last_name middle_name "
        "given_name family_name surname firstname lastname fullname person_name "
        "name_student prefix_name",
    ),
    **_labels("email address", "email email_address e_mail mail"),
    **_labels(
        "phone number",
        "phone phone_number telephone telephone_number mobile "
        "mobile_number cell fax fax_number phonenumber tel",
    ),
    **_labels("ssn", "ssn us_ssn social_security_number social_security"),
    **_labels(
        "national id",
        "national_id national_identification_number us_itin itin uk_nhs "
        "nhs uk_nino nino tax_id tax_number id_card id_number idcardnum socialnum",
    ),
    **_labels("ip address", "ip ip_address ipv4 ipv6 ip_v4 ip_v6"),
    **_labels("mac address", "mac mac_address"),
    **_labels("url", "url uri website domain domain_name web_url personal_url"),
    **_labels("passport number", "passport passport_number us_passport passportnum"),
    **_labels("date of birth", "dob date_of_birth birthdate birth_date birthday"),
    **_labels("date", "date date_time datetime time"),
    **_labels(
        "organization", "org organization organisation company company_name employer institution"
    ),
    **_labels(
        "street address",
        "street_address address street building_number "
        "secondary_address building_name buildingnum full_address",
    ),
    **_labels("postal code", "zip zipcode zip_code postcode postal_code post_code"),
    **_labels(
        "location",
        "location loc gpe city state country county province region fac facility coordinate",
    ),
    **_labels("age", "age"),
    **_labels("routing number", "routing_number aba aba_routing_number sort_code"),
    **_labels(
        "bank account number",
        "account_number bank_account bank_account_number us_bank_number accountnum",
    ),
    **_labels("iban", "iban iban_code"),
    **_labels("swift/bic", "swift bic swift_bic swift_bic_code swift_code"),
    **_labels(
        "card number",
        "credit_card credit_card_number card_number creditcardnumber credit_debit_card debit_card",
    ),
    **_labels("ein", "ein employer_identification_number"),
    **_labels(
        "driver's license",
        "driver_license drivers_license driver_license_number us_driver_license driverlicensenum",
    ),
    **_labels("license plate", "license_plate licence_plate vehicle_plate plate_number"),
    **_labels(
        "medical record number",
        "medical_record_number mrn medical_record health_plan_beneficiary_number",
    ),
    **_labels("medical license", "medical_license"),
    **_labels(
        "internal id",
        "employee_id customer_id student_id user_id member_id internal_id badge_id id",
    ),
    **_labels(
        "reference id",
        "reference_id ticket_id order_id case_id invoice_id uuid account_id unique_id",
    ),
    **_labels(
        "crypto wallet",
        "crypto crypto_wallet bitcoin_address ethereum_address btc_address eth_address wallet",
    ),
    **_labels("handle", "handle username user_name social_handle twitter_handle"),
    **_labels("secret", "secret password api_key token access_token pin credential private_key"),
    **_labels("nationality or group", "nrp norp nationality religion political_group ethnicity"),
}


def _normalise(label: str) -> str:
    label = re.sub(r"^[BILEUS]-", "", label.strip())  # BIO/BILOU tags
    return re.sub(r"[\s\-/]+", "_", label).lower()


def category_for_label(label: str) -> str:
    """Our category for a dataset label (or one of our own category strings)."""
    if label.strip().lower() in PLACEHOLDERS:
        return label.strip().lower()
    return GOLD_LABELS.get(_normalise(label), "custom")


def gold_detections(spans: Iterable[Mapping[str, Any]], text: str | None = None) -> list[Detection]:
    """Detections from {start, end, label} spans; with `text`, spans must lie inside it."""
    found = []
    for span in spans:
        start, end = int(span["start"]), int(span["end"])
        if end <= start or start < 0 or (text is not None and end > len(text)):
            raise ValueError(f"gold span {start}:{end} does not fit the text")
        category = category_for_label(str(span["label"]))
        found.append(
            Detection(
                start,
                end,
                category,
                placeholder_for(category),
                "gold",
                1.0,
                f"gold:{span['label']}",
            )
        )
    return found


class GoldDetector:
    """A detector for one document whose PII is already annotated."""

    name = "gold"

    def __init__(self, spans: Iterable[Mapping[str, Any]]) -> None:
        self.spans = list(spans)

    def detect(self, text: str) -> list[Detection]:
        return gold_detections(self.spans, text)
