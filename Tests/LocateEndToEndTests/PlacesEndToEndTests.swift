import Foundation
import Testing

/// Places end to end: `locate geocode`, place tokens and `--geocode` against a real gpsd
/// replaying the parked track (Reykjavik), `[fallback] place`, languages and locales.
struct PlacesEndToEndTests {
    @Test func geocodeNamesTheFallbackCoordinateInTwoLanguages() async throws {
        let english = try await runLocate(["geocode", "--lang", "C", "37.517829", "126.886270"], settings: .withPlaceIndex())
        #expect(english.status == 0)
        #expect(english.stdout == "Seoul, Republic of Korea\n")
        let korean = try await runLocate(
            ["geocode", "37.517829", "126.886270"], settings: .withPlaceIndex(), environment: ["LANGUAGE": "ko", "LANG": "C.UTF-8"])
        #expect(korean.stdout == "서울특별시, 대한민국\n")
        let json = try jsonObject(
            try await runLocate(["geocode", "--json", "--lang", "C", "--", "-33.8568", "151.2153"], settings: .withPlaceIndex()).stdout
                .trimmingCharacters(in: .newlines))
        #expect(
            json["city"] as? String == "Sydney" && json["country_code"] as? String == "AU"
                && json["timezone"] as? String == "Australia/Sydney")
        #expect((json["distance_m"] as? Double).map { $0 > 0 && $0 < 20_000 } == true)
    }

    @Test func geocodeFindsNamesAndSaysWhenNothingMatches() async throws {
        let springfields = try await runLocate(["geocode", "Springfield", "--limit", "2", "--lang", "C"], settings: .withPlaceIndex())
        #expect(springfields.status == 0)
        #expect(springfields.stdout.split(separator: "\n").count == 2)
        #expect(springfields.stdout.split(separator: "\n").allSatisfy { $0.contains(" Springfield, ") })
        let negative = try await runLocate(["geocode", "-33.8568", "151.2153", "--lang", "C"], settings: .withPlaceIndex())
        #expect(negative.stdout == "Sydney, New South Wales, Australia\n", "a negative latitude is an argument, not an option")
        for (arguments, status) in [
            (["91", "0"], 64), (["37.5"], 64), (["1", "2", "3"], 1), (["0x10", "5"], 64), ([], 64),
            (["--", "-48.88", "-123.39"], 1), (["Xanadu", "Nowhere"], 1), (["--csv", "1", "2"], 64), (["--batch", "1", "2"], 64),
            (["--batch", "--limit", "2"], 64),
        ] as [([String], Int32)] {
            let run = try await runLocate(["geocode"] + arguments, settings: .withPlaceIndex())
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty && !run.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test func placeTokensAndGeocodeFieldsComeFromTheFix() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let template = try await runLocate(
            ["--format", "%lat %city, %country (%country_code, %timezone) %place", "--lang", "C", receiver.endpoint],
            settings: .withPlaceIndex())
        #expect(template.status == 0)
        #expect(template.stdout == "64.150432 Reykjavik, Iceland (IS, Atlantic/Reykjavik) Reykjavik, Capital Region, Iceland\n")
        let json = try jsonObject(
            try await runLocate(["--json", "--geocode", "--lang", "C", receiver.endpoint], settings: .withPlaceIndex()).stdout
                .trimmingCharacters(
                    in: .newlines))
        #expect(
            json["city"] as? String == "Reykjavik" && json["state"] as? String == "Capital Region"
                && json["country_code"] as? String == "IS")
        #expect(json["lat"] as? Double == 64.1504322, "the record's own fields are unchanged")
        let csv = try await runLocate(["--csv", "--geocode", "--lang", "C", receiver.endpoint], settings: .withPlaceIndex()).stdout.split(
            separator: "\n")
        #expect(csv.first?.hasSuffix(",integrity,integrity_reason,city,state,country,country_code,timezone") == true)
        #expect(csv.last?.hasSuffix(",ok,,Reykjavik,Capital Region,Iceland,IS,Atlantic/Reykjavik") == true)
        let withoutPlaces = try await runLocate(["--json", receiver.endpoint])
        #expect(!withoutPlaces.stdout.contains("city"), "no place fields without --geocode")
        #expect(try await runLocate(["--geocode", receiver.endpoint]).status == 64, "--geocode goes with --json or --csv")
    }

    @Test func underReducedAccuracyThePlaceIsTheCells() async throws {
        let receiver = try await GpsdServer(track: "weather")
        let settings = try await SettingsHome.withPlaceIndex(user: "[location]\nauthorization = always\naccuracy = reduced\n")
        let run = try await runLocate(["--format", "%lat %lon|%place", "--lang", "C", receiver.endpoint], settings: settings)
        #expect(run.status == 0)
        let parts = run.stdout.trimmingCharacters(in: .newlines).split(separator: "|")
        let coordinate = parts[0].split(separator: " ").map(String.init)
        #expect(coordinate != ["64.150432", "-21.940457"], "the cell, not the fix")
        let cellPlace = try await runLocate(["geocode", "--lang", "C", "--"] + coordinate, settings: settings)
        #expect(cellPlace.stdout == String(parts[1]) + "\n")
    }

    @Test func aGermanLocaleStillFindsThePlace() async throws {
        // A C parser under a German LC_NUMERIC would read 48.1374 as 48 (a classic atof trap).
        let munich = try await runLocate(
            ["geocode", "--lang", "C", "48.1374", "11.5755"], settings: .withPlaceIndex(),
            environment: ["LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"])
        #expect(munich.stdout == "Munich, Bavaria, Germany\n")
        let german = try await runLocate(
            ["geocode", "48.1374", "11.5755"], settings: .withPlaceIndex(), environment: ["LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"])
        #expect(german.stdout == "München, Bayern, Deutschland\n")
    }

    @Test func theFallbackCanBeAPlaceAndABadPlaceIsAConfigurationError() async throws {
        let paris = try await runLocate(
            ["127.0.0.1:1"], settings: .withPlaceIndex(user: "[location]\nauthorization = denied\n[fallback]\nplace = Paris, France\n"))
        #expect(paris.status == 77)
        #expect(paris.stdout == "48.853410 2.348800\n")
        let seoul = try await runLocate(
            ["--format", "%lat %lon %city", "--lang", "C", "127.0.0.1:1"],
            settings: .withPlaceIndex(user: "[location]\nauthorization = denied\n[fallback]\nplace = Seoul\n"))
        #expect(seoul.stdout == "37.566000 126.978400 Seoul\n")
        for (place, phrase) in [("Springfield", "names several places"), ("Xanadu Nowhere", "no place named"), ("", "no place named ''")] {
            let settings = try await SettingsHome.withPlaceIndex(
                user: "[location]\nauthorization = always\n\n[fallback]\nplace = \(place)\n")
            let run = try await runLocate(["127.0.0.1:1"], settings: settings)
            #expect(run.status == 78, "\(place)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains(settings.userFile.path + ":5:") && run.stderr.contains(phrase), "\(run.stderr)")
        }
        let both = try SettingsHome(user: "[fallback]\nlatitude = 1\nplace = Seoul\n")
        #expect(try await runLocate(["127.0.0.1:1"], settings: both).status == 78)
    }
}
