/**
 * The regions' membership, as tables of ISO 3166-1 alpha-3 codes (Kosovo: `XKX`). No installed
 * package carries OWID's continents or WHO's regions, so they are written here with their source.
 */

const codes = (list: string): readonly string[] => list.trim().split(/\s+/);

/**
 * Our World in Data's six continents: `scripts/input/owid/continents.csv` of the owid/covid-19-data
 * repository (the list its COVID-19 and MPOX files' continent rows are summed over), its present-day
 * countries and territories; Kosovo is `OWID_KOS` there. Its `Antarctica` (ATA, BVT, ATF, HMD) is none
 * of the six. Close to the UN's M49 regions, but OWID puts Cyprus in Europe and splits the Americas
 * into North America (with Central America and the Caribbean) and South America.
 */
export const OWID_CONTINENTS = {
  Africa: codes(`
    AGO BDI BEN BFA BWA CAF CIV CMR COD COG COM CPV DJI DZA EGY ERI ESH ETH GAB GHA GIN GMB
    GNB GNQ KEN LBR LBY LSO MAR MDG MLI MOZ MRT MUS MWI MYT NAM NER NGA REU RWA SDN SEN SHN
    SLE SOM SSD STP SWZ SYC TCD TGO TUN TZA UGA ZAF ZMB ZWE
  `),
  Asia: codes(`
    AFG ARE ARM AZE BGD BHR BRN BTN CCK CHN CXR GEO HKG IDN IND IOT IRN IRQ ISR JOR JPN KAZ
    KGZ KHM KOR KWT LAO LBN LKA MAC MDV MMR MNG MYS NPL OMN PAK PHL PRK PSE QAT SAU SGP SYR
    THA TJK TKM TLS TUR TWN UZB VNM YEM
  `),
  Europe: codes(`
    ALA ALB AND AUT BEL BGR BIH BLR CHE CYP CZE DEU DNK ESP EST FIN FRA FRO GBR GGY GIB GRC
    HRV HUN IMN IRL ISL ITA JEY LIE LTU LUX LVA MCO MDA MKD MLT MNE NLD NOR POL PRT ROU RUS
    SJM SMR SRB SVK SVN SWE UKR VAT XKX
  `),
  'North America': codes(`
    ABW AIA ATG BES BHS BLM BLZ BMU BRB CAN CRI CUB CUW CYM DMA DOM GLP GRD GRL GTM HND HTI
    JAM KNA LCA MAF MEX MSR MTQ NIC PAN PRI SLV SPM SXM TCA TTO USA VCT VGB VIR
  `),
  Oceania: codes(`
    ASM AUS COK FJI FSM GUM KIR MHL MNP NCL NFK NIU NRU NZL PCN PLW PNG PYF SLB TKL TON TUV
    UMI VUT WLF WSM
  `),
  'South America': codes(`
    ARG BOL BRA CHL COL ECU FLK GUF GUY PER PRY SGS SUR URY VEN
  `),
} as const;

/** The European Union's 27 members since 1 February 2020 (OWID's `European Union (27)` row). */
export const EU_MEMBERS = codes(`
  AUT BEL BGR CYP CZE DEU DNK ESP EST FIN FRA GRC HRV HUN IRL ITA LTU LUX LVA MLT NLD POL PRT ROU
  SVK SVN SWE
`);

/**
 * WHO's six regions as its COVID-19 files assign each place (`WHO_region` of
 * `WHO-COVID-19-global-data.csv`; for the places that file does not list, the `WHO_REGION` of the
 * WHO COVID-19 dashboard's world map, which agrees with the file on every place both list).
 * Hong Kong, Macao and Taiwan are in none: WHO counts them within China.
 */
export const WHO_REGIONS = {
  AFRO: codes(`
    AGO BDI BEN BFA BWA CAF CIV CMR COD COG COM CPV DZA ERI ESH ETH GAB GHA GIN GMB GNB GNQ
    KEN LBR LSO MDG MLI MOZ MRT MUS MWI MYT NAM NER NGA REU RWA SEN SHN SLE SSD STP SWZ SYC
    TCD TGO TZA UGA ZAF ZMB ZWE
  `),
  AMRO: codes(`
    ABW AIA ARG ATG BES BHS BLM BLZ BMU BOL BRA BRB CAN CHL COL CRI CUB CUW CYM DMA DOM ECU
    FLK GLP GRD GTM GUF GUY HND HTI JAM KNA LCA MAF MEX MSR MTQ NIC PAN PER PRI PRY SLV SPM
    SUR SXM TCA TTO URY USA VCT VEN VGB VIR
  `),
  EMRO: codes(`
    AFG ARE BHR DJI EGY IRN IRQ JOR KWT LBN LBY MAR OMN PAK PSE QAT SAU SDN SOM SYR TUN YEM
  `),
  EURO: codes(`
    ALB AND ARM AUT AZE BEL BGR BIH BLR CHE CYP CZE DEU DNK ESP EST FIN FRA FRO GBR GEO GGY
    GIB GRC GRL HRV HUN IMN IRL ISL ISR ITA JEY KAZ KGZ LIE LTU LUX LVA MCO MDA MKD MLT MNE
    NLD NOR POL PRT ROU RUS SJM SMR SRB SVK SVN SWE TJK TKM TUR UKR UZB VAT XKX
  `),
  SEARO: codes(`
    BGD BTN IDN IND LKA MDV MMR NPL PRK THA TLS
  `),
  WPRO: codes(`
    ASM AUS BRN CCK CHN COK CXR FJI FSM GUM JPN KHM KIR KOR LAO MHL MNG MNP MYS NCL NFK NIU
    NRU NZL PCN PHL PLW PNG PYF SGP SLB TKL TON TUV UMI VNM VUT WLF WSM
  `),
} as const;
