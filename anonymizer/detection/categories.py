"""The PII categories every detector maps onto, with their placeholders.

Names follow the seed sanitizer's category strings (lower case), so `whitelist_categories`
from seed usage keeps working.
"""

from __future__ import annotations

PLACEHOLDERS: dict[str, str] = {
    "full person name": "[PERSON]",
    "email address": "[EMAIL]",
    "phone number": "[PHONE]",
    "ssn": "[SSN]",
    "national id": "[NATIONAL_ID]",
    "ip address": "[IP_ADDRESS]",
    "mac address": "[MAC_ADDRESS]",
    "url": "[URL]",
    "passport number": "[PASSPORT]",
    "date of birth": "[DOB]",
    "organization": "[ORG]",
    "street address": "[ADDRESS]",
    "postal code": "[POSTAL_CODE]",
    "location": "[LOCATION]",
    "age": "[AGE]",
    "routing number": "[ROUTING_NUMBER]",
    "bank account number": "[BANK_ACCOUNT]",
    "iban": "[IBAN]",
    "swift/bic": "[SWIFT_BIC]",
    "card number": "[CARD_NUMBER]",
    "ein": "[EIN]",
    "driver's license": "[DRIVER_LICENSE]",
    "license plate": "[LICENSE_PLATE]",
    "medical record number": "[MEDICAL_RECORD_NUMBER]",
    "medical license": "[MEDICAL_LICENSE]",
    "internal id": "[INTERNAL_ID]",
    "reference id": "[REFERENCE_ID]",
    "crypto wallet": "[CRYPTO_WALLET]",
    "handle": "[HANDLE]",
    "secret": "[SECRET]",
    "date": "[DATE]",
    "nationality or group": "[NRP]",
    "custom": "[REDACTED]",
}

CATEGORIES: tuple[str, ...] = tuple(PLACEHOLDERS)


def placeholder_for(category: str) -> str:
    """Placeholder text for a known category (KeyError for unknown ones)."""
    return PLACEHOLDERS[category]


def normalise_category(name: str) -> str:
    """Lower-case and strip a user-given category; raises KeyError when unknown."""
    key = name.strip().lower()
    if key not in PLACEHOLDERS:
        raise KeyError(name)
    return key
