/// The locate-geocode(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let geocode = ManualPage(
        name: "locate-geocode", section: 1,
        summary: "name places offline, and find them by name",
        commands: ["geocode"], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            `locate` names places offline, as `CLGeocoder` does for CoreLocation apps, from data Debian
            keeps up to date. Never the network.

            - **libgeonames** (GeoNames data, CC BY 4.0): 24,361 places of about 15,000 people or more, each
              with its first-level division, country, ISO code, IANA time zone and population; names
              translated into about 190 languages by `libgeonames-common`.
            - **tzdata**: `zone.tab`'s principal city of every time zone, with its country and coordinate.
              One that libgeonames lacks (no place of its country within 25 km, none of its name) is added,
              so every country and territory with a zone has at least that place: Singapore, Macau, Vatican
              City, Gibraltar, Nouakchott, Stanley and 300-odd stations, islands and towns (no state, and a
              population of 0: tzdata has none). `tzdata.zi`'s links make every zone today's id
              (`Europe/Kiev` is `Europe/Kyiv`), and a place that is a zone's principal city is in that zone
              where GeoNames is older (Ciudad Juárez: `America/Ciudad_Juarez`, on US daylight saving time
              since 2022, not `America/Ojinaga`).
            - **iso-codes**: country and subdivision names in about 60 languages, for the names libgeonames
              does not translate. GeoNames' division codes are not ISO's (Bavaria is `DE.02`, ISO `DE-BY`),
              so each division is matched to its ISO 3166-2 subdivision through the names both have in the
              languages of both catalogues ("Bayern" in libgeonames' German is `DE-BY`'s ISO name): 94% of
              places get their division matched.
            - **gmt-dcw** (the Digital Chart of the World at 1:1,000,000, as the GMT team keeps it for Debian,
              LGPL-3+; read once through Debian's libnetcdf, netCDF-4/HDF5): the borders of 248 countries
              and territories, and of the states of the eight largest (Argentina, Australia, Brazil, Canada,
              China, India, Russia and the United States: 275 states). The country, and there the state,
              of a coordinate is the one whose border holds it. It was chosen because Debian ships it, it is
              one file covering the world, and it agrees with the OpenStreetMap-based timezone polygons on
              99.8% of land points outside Antarctica; Natural Earth and OSM boundaries are not in Debian.

            ```console
            $ locate geocode 37.517829 126.886270
            Seoul, Republic of Korea
            $ LANGUAGE=ko locate geocode 37.517829 126.886270
            서울특별시, 대한민국
            $ locate geocode --json 48.8584 2.2945
            {"lat":48.8584000,"lon":2.2945000,"city":"Paris","state":"Île-de-France Region","country":"France","country_code":"FR","timezone":"Europe/Paris","place_lat":48.853410,"place_lon":2.348800,"population":2138551,"distance_m":4011}
            $ locate geocode 65 105
            Krasnoyarskiy, Russia
            $ locate geocode 24.0 8.0
            Tamanrasset Province, Algeria
            $ locate geocode --json 42.3170 -83.0375
            {"city":"Windsor","state":"Ontario","country":"Canada","country_code":"CA","timezone":"America/Toronto","lat":42.300080,"lon":-83.016540,"population":278013,"distance_m":2552}
            $ locate geocode --json 39.0 -10.5
            {"city":"Alcabideche","state":null,"country":null,"country_code":null,"timezone":"Europe/Lisbon","lat":38.733660,"lon":-9.409280,"population":33315,"distance_m":98966}
            $ locate geocode --json 1.2840 103.8514
            {"lat":1.2840000,"lon":103.8514000,"city":"Singapore","state":null,"country":"Singapore","country_code":"SG","timezone":"Asia/Singapore","place_lat":1.283333,"place_lon":103.850000,"population":0,"distance_m":172}
            $ locate geocode Springfield --limit 2
            37.215330 -93.298240 Springfield, Missouri, United States of America
            42.101480 -72.589810 Springfield, Massachusetts, United States of America
            $ LANGUAGE=de locate --format '%lat %lon %place (%timezone)'
            64.150432 -21.940457 Reykjavík, Hauptstadtregion, Island (Atlantic/Reykjavik)
            $ locate --json --geocode | jq -r .city
            Reykjavik
            $ printf '37.517829 126.886270\n65,105\nnot a point\n' | locate geocode --batch --json
            {"lat":37.5178290,"lon":126.8862700,"city":"Seoul","state":"Seoul","country":"Republic of Korea","country_code":"KR","timezone":"Asia/Seoul","distance_m":9730}
            {"lat":65.0000000,"lon":105.0000000,"city":null,"state":"Krasnoyarskiy","country":"Russia","country_code":"RU","timezone":"Asia/Krasnoyarsk","distance_m":773285}
            {"line":3,"error":"not LAT LON or LAT,LON: 'not a point'"}
            locate: 1 of 3 lines were not points (the first: line 3: not LAT LON or LAT,LON: 'not a point')
            $ locate --follow --json | locate geocode --batch --json --lang C >> annotated.jsonl
            ```

            In every record `lat` and `lon` mean one thing: the point the record is about (the fix, the
            `--batch` input point, the coordinate given to `geocode`); the place's own coordinate is
            `place_lat` and `place_lon`. `geocode NAME --json` has no point asked about, so only `place_lat`
            and `place_lon`. (Up to 0.3.0, `geocode --json` wrote the place's coordinate as `lat` and `lon`;
            read `place_lat`/`place_lon` for it now.) A coordinate is read as `LAT LON`, `LAT,LON` or either
            as one quoted word (`locate geocode "37.5, 127"`), as in `--batch`.

            - **The rule, the same everywhere** (`locate geocode LAT LON`, `--batch`, `--geocode`, `%city`
              and the library's `reverseGeocode`, which they all call). Not the nearest centre point, which
              inside a big city is often a neighbour's (Yeongdeungpo-gu in Seoul is 4.8 km from Gwangmyeong's
              point and 9.7 km from Seoul's). Each place reaches out from its point by a radius of
              12 m × √population (about 38 km for Seoul's 10 million, 7 km for 350,000 people, 1.5 km for
              15,000); among the places whose radius reaches the coordinate, the one it is deepest inside
              (smallest distance ÷ radius) is named; if none reaches it, the nearest place. Only places of the
              coordinate's own country (and, in the eight countries with state borders, its own state)
              compete, so a big city does not reach across a border (Brazzaville stays Brazzaville beside
              Kinshasa's 7.8 million; the Windsor riverfront is Windsor, not Detroit 2 km away; Jersey City
              is not New York). The time zone is the named place's, so it is of the same country and state. A suburb that is a city of its
              own keeps its name (Santa Monica, Cambridge MA, Potsdam). The tests hold a table of 39 real
              places (landmarks in big cities, suburbs, border towns, islands, the antimeridian); the naive
              nearest point gets 7 of them wrong, this rule none.
            - **Every land point is answered.** When the country's nearest place is more than 100 km away,
              no city is named (`city` is `null` in JSON, empty in CSV, left out of the text:
              "Krasnoyarskiy, Russia") but the state, country and time zone are, with `distance_m` saying how
              far that place is, so a script can tell "in Reykjavík" from "somewhere in Iceland". The
              Tassili (24.0 8.0) is Algeria, though its nearest town is in Libya.
            - **The sea has no country.** A coordinate in no country's border but within 12 nautical miles
              (22.2 km, the territorial sea) of one's coast is in that country. Farther out `country` and
              `country_code` are `null` (empty in CSV, left out of the text) and the rest is the nearest
              place on land: its city within 100 km, its time zone, and `distance_m` to it; the text is that
              city alone, or an empty line. Beyond 1,500 km from any place (the open ocean: Point Nemo)
              nothing is named: `geocode` says so with status 1, a batch writes the point with `null` place
              fields, a record's place tokens are unknown. Archipelagic and internal waters beyond 12 miles
              (between Indonesia's islands, Hudson Bay) are sea here, though the timezone polygons give them
              a country.
            - **How exact the borders are.** The Digital Chart of the World is 1:1,000,000 data: its lines
              are 0.5–2 km from the true border (Monaco is drawn 1.5 km too far north, Geneva's border about
              1 km off), so within a kilometre or two of a border either side may be named; against the
              OpenStreetMap-based timezone polygons a point 300–500 m inside a border gets the right country
              80% of the time, 750 m–1 km 91%, 1.5–2 km 96%. The index simplifies the lines by at most 150 m
              more (Douglas–Peucker), which changes no answer farther than 150 m from the data's line. Rings
              the data draws twice are kept once, so enclaves are holes (Llívia is Spain, Büsingen Germany);
              not in the data at all: Baarle-Hertog's enclaves (they read as the Netherlands), Campione
              d'Italia (Switzerland), Easter Island and Juan Fernández (sea). Disputed areas are as the data
              draws them: Crimea Ukraine, Western Sahara `EH`, Kosovo `XK`, Taiwan `TW`, Hong Kong `HK` and
              Macau `MO` (the data's Chinese states). Where two borders overlap (Finland draws Åland too),
              the smaller country wins. The tests check both sides of 20 borders (Lesotho in South Africa,
              Baarle-Nassau, Hispaniola, Timor and Oecusse, Borneo's Sebatik, Saint Martin, Ireland,
              Gibraltar, the Vatican, San Marino, Liechtenstein, Monaco, Detroit and Windsor…), the
              Tassili, and sea points.
            - **Known limits.** No districts ("Shinjuku" is Tokyo), though some large neighbourhoods are
              places of their own (Manhattan, Brooklyn); no places under ~15,000 people but tzdata's
              principal cities. Outside the eight countries with state borders the state is the named
              place's, so near a state border it can be the neighbour's. A place's zone is its town's, so
              near a zone border inside a country a point can get the zone of a town across it; tzdata's
              principal cities carry their zone, not its area.
            - **Language.** Names follow `LANGUAGE` (a colon-separated list, honoured even in the C locale),
              else `LC_ALL`, `LC_MESSAGES` or `LANG` (`ko_KR.UTF-8` tries `ko_KR`, then `ko`); `--lang C`
              forces the data's English names for scripts, `--lang ko` a language. For each language in turn,
              libgeonames' catalogue, then iso-codes' (countries, and the states matched to ISO
              subdivisions); a name neither has stays in English. `locate` reads the catalogues itself and
              never calls `setlocale`, so a German `LC_ALL` cannot turn `48.069` into 48 anywhere, and JSON
              keeps the localized names. Measured by `make bench` over its 2,000 points: the share of the
              names answered that differ from the English ones (a name spelled alike, such as Berlin in
              German, counts as not translated):

              | language | cities | states | countries |
              | --- | --- | --- | --- |
              | ko | 35% | 34% | 100% |
              | ja | 34% | 58% | 100% |
              | zh_CN | 42% | 60% | 100% |
              | ru | 56% | 60% | 100% |
              | ar | 34% | 27% | 100% |
              | hi | 5% | 14% | 100% |
              | de | 9% | 48% | 76% |
              | fr | 8% | 56% | 78% |
              | es | 8% | 31% | 71% |
              | pt | 6% | 24% | 84% |

            - **`locate geocode --batch`** reads points from stdin, one per line: `LAT LON`, `LAT,LON`, or a
              JSON object with numbers `lat` and `lon` (such as locate's own records), and writes one record
              per input line, in order: text ("city, state, country", an empty line when there is no place),
              `--json` (the point and `city`, `state`, `country`, `country_code`, `timezone`, `distance_m`;
              a JSON object read comes back whole with those fields added, replacing any it had, and
              locate's status events pass through as they are) or `--csv` (the same columns, then `error`).
              A line that is not a point (an empty line, a bad number, a coordinate out of range, more than
              64 KiB) gets an error record (`{"line":3,"error":"..."}`; in text an empty line and a message on
              stderr) and never stops the batch; the status is then 65 (EX_DATAERR), with a message counting
              them. The index is loaded once, and output goes out as input comes in, in whole lines.
            - `locate geocode LAT LON` prints the place at a coordinate ("city, state, country", without a
              part that repeats the one before it); `locate geocode NAME` prints a line per place of that
              name, `lat lon place`, largest first, then names that start with it (`--limit N`, default 10).
              A qualifier after a comma picks a country or state: `Paris, FR`, `Springfield, Illinois`.
              Names match in English and in your language, without regard to case or to the diacritics of
              Latin letters (`sao paulo`, `lodz`; `LANGUAGE=de locate geocode koln` finds Köln). A negative
              coordinate is an argument, not an option (`locate geocode -33.8568 151.2153`). No permission is
              involved: these are not your position. Status 64 for a coordinate out of range, 1 when nothing
              matches, 69 without libgeonames, gmt-dcw or libnetcdf (the first time, when the index is built).
            - **In records.** `--format` place tokens and `--json`/`--csv --geocode` look up the place of the
              coordinate each record carries, never of anything else: under reduced accuracy the grid cell's
              place, for the fallback the fallback's place, and when location is not authorized nothing
              derived from the real position (the privacy tests check every unauthorized state for the
              parked track's Reykjavik, Capital Region, Iceland, IS and Atlantic/Reykjavik).
            - **`[fallback] place = Seoul`** in the settings instead of `latitude` and `longitude`: resolved
              offline among English names when the file is read; a name that matches no place or several
              (`Springfield`) is a configuration error naming the file and line (status 78); qualify it
              (`place = Springfield, Illinois`). Setting both `place` and a coordinate is an error too.
            - **Cost.** The first use builds a compact index of all places and borders (3–4 s, once: reading
              and simplifying 11 million border points, and matching divisions across some 60 languages'
              catalogues) into `$XDG_CACHE_HOME/locate/places.index` (24 MB, written atomically, the same
              for every user), stamped with the files it came from: an upgrade of libgeonames, tzdata,
              iso-codes, gmt-dcw or libnetcdf makes it be rebuilt, and a damaged or foreign file (or one of
              an older layout) is ignored and replaced. The places are laid out as a k-d tree over their unit
              vectors (no special case at the poles or the antimeridian), so a lookup visits a few dozen
              places, not 24,000. The borders are a grid of 1° cells, each a quadtree whose leaves are inside
              one country or hold at most 16 border edges: a point inland is answered from the cell table,
              one near a border from a few edges. Opening the index reads its header and, in one read each,
              what the tree's searches read all over (the places' unit vectors, reaches and countries: 0.6
              MB), all stored in the file; the places' rows, tables and names (1.1 MB) are mapped read-only
              and read where a lookup needs them, and nothing is checked row by row: a file whose header does
              not lay out sections that fill it is replaced, and one damaged inside gives a wrong place or
              none, never a crash. A lookup reads its own cell's entry and leaf, so the borders cost no memory: a
              batch of 2,000 random land points takes 30–45 ms end to end, process start included, in
              11.6 MiB (make bench). libgeonames and libnetcdf are opened with `dlopen` only to build the
              index, so a run without place names loads nothing of them (`readelf -d` lists no GLib, netCDF
              or HDF5), and `make bench` shows `--once` with and without `%city`.
            """#,
        details: ""
    )
}
