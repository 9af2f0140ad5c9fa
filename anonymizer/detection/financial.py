"""Banks and insurers people hold accounts and policies with, by the names people write.

The annotation guideline counts the bank or insurer holding a person's account or policy as
an organisation, and most mentions of one in an uploaded letter, chat or form are exactly
that ("my AIB account", "Santam polis", "the Desjardins account"). The model knows few of
them outside the US and UK, and no maintained package lists retail banks and insurers by
their everyday names, so this is a hand-written list of the large ones in the countries our
users write from. Names that are also everyday words or places (Chase, Ally, Halifax,
Nationwide, Progressive, Zurich, Liberty, Discovery, Momentum, Vanguard, Churchill) and
acronyms with another everyday meaning (DBS, the UK's criminal-record check) are left out:
they would be wrong more often than right.
"""

from __future__ import annotations

FINANCIAL_INSTITUTIONS: frozenset[str] = frozenset(
    # UK and Ireland
    "Barclays|HSBC|Lloyds Bank|NatWest|RBS|Monzo|Starling Bank|Revolut|Metro Bank|TSB|"
    "Co-operative Bank|First Direct|Virgin Money|Bank of Scotland|Royal Bank of Scotland|"
    "Clydesdale Bank|Yorkshire Building Society|Coventry Building Society|Scottish Widows|"
    "Legal & General|Direct Line|Admiral Insurance|Hastings Direct|Royal London|Standard Life|"
    "Aviva|AIB|Allied Irish Banks|Bank of Ireland|PTSB|Permanent TSB|Ulster Bank|FBD Insurance|"
    "Irish Life|"
    # Germany, Austria, Switzerland
    "Deutsche Bank|Commerzbank|Sparkasse|Volksbank|Berliner Volksbank|Postbank|DKB|N26|"
    "Comdirect|HypoVereinsbank|Targobank|Debeka|HUK-Coburg|Allianz|ERGO|Barmer|"
    "Techniker Krankenkasse|DAK-Gesundheit|Raiffeisenbank|Erste Bank|UBS|PostFinance|"
    # France, Belgium
    "BNP Paribas|Société Générale|Crédit Agricole|Crédit Mutuel|LCL|La Banque Postale|"
    "Caisse d'Epargne|Caisse d’Epargne|Boursorama|MAIF|MACIF|Groupama|AXA|Belfius|KBC|"
    # Spain, Portugal, Italy
    "BBVA|CaixaBank|Bankinter|Banco Sabadell|Unicaja|Kutxabank|Abanca|Mapfre|Sanitas|"
    "Adeslas|Mutua Madrileña|Línea Directa|Millennium BCP|Caixa Geral de Depósitos|"
    "Intesa Sanpaolo|UniCredit|Poste Italiane|BPER|Fineco|Generali|UnipolSai|Mediolanum|"
    # Netherlands and the Nordic countries
    "Rabobank|ABN AMRO|SNS Bank|ASN Bank|Triodos|Achmea|Zilveren Kruis|VGZ|Menzis|"
    "Nationale-Nederlanden|Nordea|Danske Bank|Swedbank|Handelsbanken|DNB|SpareBank 1|"
    "Länsförsäkringar|Folksam|Gjensidige|Tryg|"
    # Poland and Turkey
    "PKO|PKO BP|PKO Bank Polski|Pekao|mBank|ING Bank Śląski|Bank Millennium|Alior Bank|PZU|"
    "Ziraat Bankası|İş Bankası|Garanti BBVA|Akbank|Yapı Kredi|Halkbank|VakıfBank|"
    "QNB Finansbank|DenizBank|"
    # Canada and the US
    "RBC|Royal Bank of Canada|Scotiabank|BMO|CIBC|Desjardins|National Bank of Canada|"
    "Tangerine|Manulife|Sun Life|Canada Life|Bank of America|Wells Fargo|JPMorgan Chase|"
    "Chase Bank|Citibank|Capital One|U.S. Bank|PNC Bank|Truist|TD Bank|Navy Federal|USAA|"
    "State Farm|Allstate|GEICO|Geico|Liberty Mutual|Aetna|Cigna|Humana|Kaiser Permanente|"
    "Blue Cross Blue Shield|UnitedHealthcare|Charles Schwab|"
    # Australia and New Zealand
    "Commonwealth Bank|CommBank|Westpac|ANZ|NAB|Bendigo Bank|Macquarie Bank|Medibank|Bupa|"
    "NRMA|AAMI|Suncorp|ASB Bank|BNZ|Kiwibank|"
    # Africa
    "FNB|First National Bank|ABSA|Absa|Nedbank|Standard Bank|Capitec|TymeBank|Old Mutual|"
    "Sanlam|Santam|Hollard|OUTsurance|Equity Bank|KCB|Stanbic|NCBA|CIC Insurance|"
    "Jubilee Insurance|Britam|GTBank|GTCO|Access Bank|Zenith Bank|First Bank|UBA|Ecobank|"
    "Stanbic IBTC|Kuda|Leadway|AIICO|GCB Bank|CalBank|"
    # India and South-East Asia
    "SBI|State Bank of India|HDFC Bank|ICICI Bank|Axis Bank|Kotak Mahindra Bank|"
    "Punjab National Bank|Bank of Baroda|Canara Bank|Union Bank of India|IndusInd Bank|"
    "IDFC First Bank|LIC|Star Health|Bajaj Allianz|ICICI Lombard|BDO|BPI|Metrobank|"
    "Landbank|Security Bank|UnionBank|POSB|OCBC|UOB|Great Eastern|Maybank|CIMB|"
    "Hang Seng Bank|Bank Mandiri|BCA|"
    # The Gulf and Lebanon
    "Emirates NBD|ADCB|Mashreq|Dubai Islamic Bank|ADIB|Al Rajhi Bank|Bank Audi|BLOM Bank|"
    "Byblos Bank|"
    # Latin America
    "Banco do Brasil|Itaú|Bradesco|Nubank|Banco Inter|Porto Seguro|SulAmérica|Banorte|"
    "Banamex|Citibanamex|Banco Azteca|GNP Seguros|BancoEstado|Banco de Chile|Bancolombia|"
    "Davivienda|"
    # Japan and Korea
    "ゆうちょ銀行|三菱UFJ銀行|みずほ銀行|三井住友銀行|りそな銀行|KB국민은행|국민은행|신한은행|"
    "우리은행|하나은행|카카오뱅크".split("|")
)
