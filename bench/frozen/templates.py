"""Sentence templates of the independent generator, grouped by genre.

A template is text with `{slot}` or `{slot:k}` holes (k picks the k-th person, company or value
of that kind in the document; the same slot and k always give the same string, so names and
numbers repeat the way they do in real text). Which slot is gold PII, which is a deliberate
negative and which is plain filler is decided in `bench.frozen.generate.SLOTS`.
Written from scratch for the frozen set; `bench/corpus.py` was not read.
"""

from __future__ import annotations

# Each genre: (how snippets are joined, templates).
GENRES: dict[str, tuple[str, list[str]]] = {
    "sms": (
        "\n",
        [
            "hey it's {first_lc}, new number, save it: {phone_nat}",
            "{first_lc} here!! running late, tell {first_lc:2} i'll be outside {street} by 8",
            "reach me at {phone_nat} if the courier can't find the place, it's the blue door",
            "omg {first_lc:2} just turned {age} and still acts 12 lol",
            "can u send me {first_lc:2}'s address? i only have {postcode} {city}",
            "lol {nick} says hi. she's back in {city} till friday, her number is {phone_intl}",
            "my code for the parcel locker is {password}, dont share it",
            "{first_lc} ur mum called, she wants u to ring {phone_nat} about the flat",
            "ok so {first_lc:2} is {nat_lc} and {religion_lc}, she won't eat pork, plan the menu",
            "wifi at {first_lc}'s is {password} btw",
            "im at {gps} lol come find me, the car park behind the church",
        ],
    ),
    "voicemail": (
        " ",
        [
            "Hi, this is {name} calling from {company} about your order {ref}.",
            "Please call me back on {phone_intl}, or on my mobile, {phone_nat}.",
            "Hello, it's {first} again. I'm {age} and I really can't do stairs, so the ground "
            "floor flat at {street} would suit me.",
            "This message is for {name:2}. It's {title_name} from {hospital} regarding your "
            "test results.",
            "Hi {first:2}, it's {first}. {first:3} gave me your number. Call me on {phone_nat}.",
            "It's {first} from the front desk. Your courier left a parcel for {name_rev:2}, "
            "reference {ref}.",
        ],
    ),
    "reminder": (
        " ",
        [
            "Reminder: {first}, your appointment at {hospital} is on {date} at 09:40.",
            "To reschedule call {phone_nat} and quote {ref}.",
            "Dear {title_name}, your MOT for {plate_uk} is due on {date:2}.",
            "{first}, your prescription is ready for collection at {company}, {street}.",
            "Hi {first_lc}! Your booking {booking} for {date} is confirmed. See you soon!",
            "Your parcel for {street}, {postcode} {city} will arrive on {date} between 10 and 12.",
        ],
    ),
    "hr_form": (
        "\n",
        [
            "Employee: {name_rev}",
            "Staff ID: {emp_id}",
            "Start date: {date}",
            "NI number: {ni}",
            "Date of birth: {dob}",
            "{field_label} 3rd floor, east wing",
            "Home address: {street}, {postcode} {city}",
            "Emergency contact: {name:2} ({relation}), {phone_intl:2}",
            "Work e-mail: {work_email}",
            "Nationality: {nat}",
            "Bank: {iban} ({bank})",
            "Manager: {name:3}",
            "Driving licence: {uk_dl}",
            "Laptop serial: {serial}",
        ],
    ),
    "clinical": (
        " ",
        [
            "{name} is a {age_yo} {nat_lc} {gender_noun} seen today with chest pain.",
            "Mr {last} was admitted on {date} under Dr {last:2}.",
            "She is {religion_lc} and declined blood products after discussion.",
            "Lives with her daughter {first:3} at {street}, {city}.",
            "NHS number {nhs}; hospital number {mrn}.",
            "At the age of {age} he stopped smoking.",
            "Please contact {first:3} on {phone_nat:3} with the results.",
            "Medicare beneficiary {name_uc}, MBI {mbi}, DOB {dob}.",
            "Referred by Dr {name:2}, NPI {npi}, of {hospital}.",
            "Her son {first:3}, {age_kid}, has asthma as well.",
        ],
    ),
    "police": (
        " ",
        [
            "The defendant, {name}, aged {age}, of {street}, {city}, pleaded guilty.",
            "The vehicle, registration {plate_uk}, was stopped on the ring road at 23:10.",
            "Her driving licence ({uk_dl}) was seized at the scene.",
            "A witness, {name:2}, who is {nat_lc}, gave a statement on {date}.",
            "{last} told officers he had lived in {country} until he was {age}.",
            "The stolen phone (IMEI {serial}) was last seen near {gps}.",
            "Case reference {ref}. Officer in charge: DC {name:3}.",
            "The complainant, a {age_yo} {religion_lc} woman, reported abuse at {street}.",
            "Neither the {law} nor the caution was explained to {first}.",
            "A second car, a grey estate with the foreign plate {plate_eu}, was parked outside.",
        ],
    ),
    "logs": (
        "\n",
        [
            "WARN auth failed user={handle} src={ipv4} attempts=3",
            'INFO login ok user={handle} ip={ipv6} ua="{product}"',
            "DEBUG DATABASE_URL=postgres://app:{password}@{ipv4}:5432/prod",
            "curl -H 'Authorization: Bearer {secret}' https://api.internal/v1/users/{cust_id}",
            "device {serial} (mac {mac}) checked in from {ipv4}, firmware {version}",
            "ERROR payment declined customer={cust_id} email={email} amount={amount}",
            "export AWS_SECRET={secret}",
            "INFO ping 127.0.0.1 ok, build {version} healthy",
            "user {handle} reset password, new token {secret}",
            "geo lookup for {ipv4}: {gps}",
        ],
    ),
    "invoice": (
        "\n",
        [
            "Please pay {amount} to IBAN {iban} (BIC {bic}) quoting {ref}.",
            "Supplier VAT ID: {vat}",
            "Customer: {company}, attn. {name}",
            "Card {card} was declined for {amount}.",
            "Total due: {amount} incl. VAT. Invoice {ref}.",
            "Bill to: {name}, {street}, {postcode} {city}, {country_name}",
            "Contact: {work_email} / {phone_intl}",
            "Item: {product} x2, {amount}",
            "Customer VAT no. {vat:2}",
        ],
    ),
    "address_block": (
        "\n",
        [
            "{name}\n{street}\n{postcode} {city}\n{country_name}",
            "{name_uc}\n{po_box}\n{city}\n{postcode}",
            "{rank} {name}\n{mil_line}\n{mil_city} {mil_zip}",
            "{name}\n{house_name}\n{street}\n{city}\n{postcode}",
            "c/o {name:2}\n{street:2}\n{postcode:2} {city:2} ({region:2})",
            "Deliver to: {name} · {street} · {postcode} {city} · tel. {phone_nat}",
        ],
    ),
    "forum": (
        " ",
        [
            "just moved to {city} from {country} and i don't know anyone yet.",
            "as a {religion_lc} {nat_lc} woman, i get asked weird questions at work.",
            "i'm {age} and just got my first job, at {company}. any tips?",
            "dm me, my handle is {at_handle} everywhere.",
            "my landlord {first} keeps entering without notice. he lives at {street} lol.",
            "we watched {title} again on my birthday, i'm {age_years} now, don't judge.",
            "{first_lc} from my course is {ethnic_lc} and speaks four languages.",
            "portfolio: {profile_url}",
        ],
    ),
    "travel": (
        " ",
        [
            "Passenger {name_uc}, passport {passport}, seat 14C, booking {booking}.",
            "{title_name}, born {dob}, travels with her son {first:2}, aged {age_kid}.",
            "Pick-up at {gps} at 06:15; driver {first:3} ({phone_intl:3}).",
            "Hotel voucher {ref} for {name} at {company}, {city}.",
            "Frequent flyer {cust_id}; contact {email}.",
            "Rental car {plate_eu} booked for {first}; return it to {city} by 10:00 on {date}.",
        ],
    ),
    "benefits": (
        "\n",
        [
            "Beneficiary: {name_rev}",
            "Medicare number (MBI): {mbi}",
            "SSN: {ssn}",
            "Date of birth: {dob}",
            "Mailing address: {street}, {city}, {postcode}",
            "Representative: {name:2}, {phone_nat:2}",
            "Plan change effective {date}; reference {ref}",
        ],
    ),
    "support_chat": (
        "\n",
        [
            "Agent: can I have your account number please?\nCustomer: it's {cust_id}",
            "Customer: my email is {email} and my name is {name}",
            "Agent: thanks {first}. I see the router {serial} at {street}.",
            "Customer: {field_label} doesn't make sense on the form, what do I put?",
            "Customer: the card ending {masked_card} isn't mine, mine is {card}",
            "Agent: I've opened ticket {ref} for you, {first}.",
            "Customer: you can also reach me on {phone_nat} after six",
        ],
    ),
    "school": (
        " ",
        [
            "{first} ({age_kid}) will be collected by her aunt {name:2} on {date}.",
            "Please note {first}'s new address: {street}, {postcode}.",
            "{first}'s father is {nat_lc} and would like the letters in English.",
            "Lunch money for {first} {last} ({cust_id}) is overdue: {amount}.",
            "Call {name:3} at {school} on {phone_nat:3} if there is a problem.",
        ],
    ),
    "property": (
        " ",
        [
            "The plot is at {gps}, about 2 km past the chapel.",
            "Viewing with {name} at {street}, {city}, on {date}.",
            "The seller, {company}, asks {amount}. Agent reference {ref}.",
            "Keys with the neighbour, {first:2}, at {house_name}.",
            "Deposit to {iban}, account holder {name}.",
        ],
    ),
}

# Sentences with no PII at all, only deliberate negatives; mixed into documents of any genre.
NEGATIVE_FILLERS: list[str] = [
    "{field_label} see the rota.",
    "Total due: {amount} (incl. VAT).",
    "Firmware {version} fixes the pairing bug.",
    "We watched {title} again last night.",
    "Training on the {law} is mandatory for all managers.",
    "The {product} keeps freezing after the update.",
    "ISBN {isbn}.",
    "Barcode {ean} on the shelf label.",
    "{abbr} will confirm by Friday.",
    "Please ask {abbr} about the grace period.",
    "The summer timetable starts next week.",
    "Put the bill in the red folder.",
    "Use the test card 4242 4242 4242 4242 in staging only.",
    "In an emergency dial 112.",
    "Sales grew by 12% to {amount}.",
    "Ask {abbr} or {abbr:2} before you order a new {product}.",
    "Mark the boxes with the room number.",
]
