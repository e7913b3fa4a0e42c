import GPSLocationPlaces

/// How a command writes its records: the format (`--json`, `--csv`, `--gpx`, `--geojson`,
/// `--format`; text by default) and what goes with it, the language of place names, and whether
/// the fallback stands in for a position. Each command reads what applies to it (`status`,
/// `access` and `permission` only whether it is JSON).
struct OutputOptions: Sendable {
    enum Format: Sendable {
        case text, json, csv, gpx, geojson
        case template(TemplateFormat)
    }

    var format = Format.text
    /// `--events`: status events into stdout (with `--json`).
    var events = false
    /// `--no-header` turns the CSV header off.
    var csvHeader = true
    /// `--geocode`: place fields in JSON and CSV records.
    var placeFields = false
    /// `--lang`; `nil` follows `LANGUAGE` and the locale.
    var placeLanguage: PlaceLanguage?
    /// `--no-fallback` turns the fallback coordinate off.
    var fallbackEnabled = true

    var isJSON: Bool {
        if case .json = format { return true }
        return false
    }

    /// A fresh output format for one run of records of `kind` (naming their device, with
    /// `devices`), a GPX document of `shape`.
    func recordFormat(kind: RecordKind = .fix, devices: Bool = false, gpx shape: GPXFormat.Shape = .track) -> any OutputFormat {
        switch format {
        case .text: TextFormat(kind: kind, devices: devices)
        case .json: JSONFormat(includesEvents: events, fields: kind.fields(includingPlaces: placeFields, devices: devices))
        case .csv: CSVFormat(includesHeader: csvHeader, fields: kind.fields(includingPlaces: placeFields, devices: devices))
        case .gpx: GPXFormat(shape: shape)
        case .geojson: GeoJSONFormat(fields: kind.fields(includingPlaces: false))
        case .template(let template): template
        }
    }
}

extension ParsedArguments {
    /// One output format at most, and the options that only make sense with another one.
    func checkOutput() throws(UsageError) {
        // One format; the same one given again is no conflict, and a message names each once.
        var formats: [String] = []
        for format in self.formats where !formats.contains(format) { formats.append(format) }
        if formats.count > 1 {
            throw UsageError(message: "choose one output format, not \(formats.joined(separator: " and "))")
        }
        let flags = flags
        for (option, needs, given) in [
            ("--events", "--json", output.isJSON), ("--no-header", "--csv", formats == ["--csv"]),
            ("--geocode", "--json or --csv", output.isJSON || formats == ["--csv"]),
            ("--null", "--format", template != nil),
        ] where flags.contains(option) && !given {
            throw UsageError(message: "'\(option)' goes with \(needs)")
        }
    }

    /// The output options, with `--format`'s template read for records of `kind`.
    func outputOptions(for kind: RecordKind) throws(UsageError) -> OutputOptions {
        var options = output
        if let template { options.format = .template(try TemplateFormat(template, nullText: nullText ?? "", kind: kind)) }
        return options
    }
}
