import LocateSupport

/// `locate geocode`'s options: the records' format (`--json`, `--csv` with `--batch`), the most
/// places of a name (`--limit`), whether the points come from stdin (`--batch`), and the
/// language of the names (`--lang`).
struct GeocodeOptions: Sendable {
    var output = OutputOptions()
    /// `--limit`, for `geocode NAME`.
    var limit = 10
    /// `--batch`: the points come from stdin.
    var batch = false
}

/// What `locate geocode` looks up: its arguments, or `--batch`'s points.
enum GeocodeQuery: Sendable, Equatable {
    case coordinate(latitude: Double, longitude: Double)
    case name(String)
    /// `--batch`: points from stdin, a record each.
    case batch
}

extension GeocodeOptions {
    /// The options of `parsed`, checked.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        self = parsed.geocode
        try parsed.checkOutput()
        output = parsed.output
    }
}

extension GeocodeQuery {
    /// The query of `parsed`'s arguments: `--batch` takes none (and no `--limit`); else `LAT
    /// LON`, `LAT,LON` or either as one word (two numbers in range) or a name (the words, joined
    /// by spaces); CSV only with `--batch`.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        let words = parsed.positional
        if parsed.geocode.batch {
            if let word = words.first {
                throw UsageError(
                    message:
                        "'geocode --batch' reads its points from stdin; unexpected argument '\(UntrustedText.visible(word, limit: 80))'"
                )
            }
            if let limit = parsed.used.first(where: { $0.flags.contains("--limit") }) {
                throw UsageError(message: "'\(limit.name)' applies to 'geocode NAME', not to --batch")
            }
            self = .batch
            return
        }
        if let csv = parsed.used.first(where: { $0.flags.contains("--csv") || $0.flags.contains("--no-header") }) {
            throw UsageError(message: "'\(csv.name)' with geocode needs --batch")
        }
        guard !words.isEmpty else { throw UsageError(message: "'geocode' needs a coordinate (LAT LON) or a place name") }
        // `37.5 127`, `37.5,127`, `"37.5 127"` and `37.5, 127` are all one coordinate.
        let parts = words.joined(separator: " ").split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
        if parts.count <= 2, parts.contains(where: NumericText.isNumber) {
            guard parts.count == 2, parts.allSatisfy(NumericText.isNumber) else {
                throw UsageError(message: "'geocode' needs a latitude and a longitude, or a place name")
            }
            do {
                self = .coordinate(
                    latitude: try NumericText.number(parts[0], in: -90...90), longitude: try NumericText.number(parts[1], in: -180...180))
            } catch {
                throw UsageError(
                    message: "not a coordinate: '\(UntrustedText.visible(error.text, limit: 40))' (expected \(error.expected))")
            }
            return
        }
        let name = words.joined(separator: " ")
        guard name.count <= 200, !UntrustedText.hasHidden(name) else {
            throw UsageError(message: "not a place name: '\(UntrustedText.visible(name, limit: 80))'")
        }
        self = .name(name)
    }
}
