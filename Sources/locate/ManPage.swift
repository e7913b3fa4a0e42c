/// The `locate(1)` man page in roff (man macros), rendered from `Usage` like `--help`.
/// The tracked copy is Scripts/locate.1; a test checks it is what this renders.
enum ManPage {
    /// The page, for the command installed as `program`.
    static func text(program: String = "locate") -> String {
        var lines = [
            ".TH \(escaped(program.uppercased())) 1 \"\" \"\(escaped(program)) \(Usage.version)\" \"User Commands\"",
            ".SH NAME",
            escaped(program) + " \\- " + escaped(Usage.summary),
            ".SH SYNOPSIS",
        ]
        for usage in Usage.usageLines {
            lines += [".nf", escaped(program + " " + usage.line), ".fi"]
        }
        lines += [".SH DESCRIPTION", escaped(Usage.overview), ".PP", escaped(Usage.footer), ".SH COMMANDS"]
        for command in CommandTable.commands {
            lines += [".TP", "\\fB" + escaped(command.name) + "\\fR", escaped(command.summary)]
        }
        lines.append(".SH ARGUMENTS")
        for argument in Usage.arguments {
            lines += [".TP", "\\fI" + escaped(argument.name) + "\\fR", escaped(argument.help)]
        }
        lines.append(".SH OPTIONS")
        for option in OptionTable.options {
            let flags = option.flags.map { "\\fB" + escaped($0) + "\\fR" }.joined(separator: ", ")
            lines += [".TP", flags + (option.value.map { " \\fI" + escaped($0) + "\\fR" } ?? ""), escaped(option.help)]
        }
        lines.append(".SH SERVING GPSD'S CLIENTS")
        for (index, note) in Usage.serveNotes.enumerated() {
            if index > 0 { lines.append(".PP") }
            lines.append(escaped(note))
        }
        lines.append(".SH EXIT STATUS")
        for status in Usage.exitStatuses {
            lines += [".TP", "\\fB\(status.code)\\fR", escaped(status.meaning)]
        }
        for command in Usage.commandStatuses {
            lines.append(".SS " + escaped(command.command.isEmpty ? "\(program), \(program) --follow" : program + " " + command.command))
            for status in command.statuses {
                lines += [".TP", "\\fB\(status.code)\\fR", escaped(status.meaning)]
            }
        }
        lines.append(".SH ENVIRONMENT")
        for variable in Usage.environment {
            lines += [".TP", "\\fB" + escaped(variable.name) + "\\fR", escaped(variable.meaning)]
        }
        lines.append(".SH FILES")
        for file in Usage.files {
            lines += [".TP", "\\fI" + escaped(file.path) + "\\fR", escaped(file.meaning)]
        }
        lines += [
            ".PP",
            escaped(
                "The settings are sections of key = value lines; # or ; starts a comment (after a value, when white space comes before it). Every key is optional:"
            ),
            ".PP", ".nf",
        ]
        lines += Usage.settingsSyntax.map(escaped)
        lines += [".fi", ".SH JSON FIELDS", escaped("With --json, one object a line; with --csv, the same fields as columns.")]
        let kinds: [(kind: RecordKind, name: String)] = [
            (.fix, "fix (--geocode adds the last five)"), (.region, "region"), (.visit, "visit"),
        ]
        for (kind, name) in kinds {
            let names = kind.fields(includingPlaces: kind == .fix).map(\.name)
            lines += [".TP", "\\fB" + escaped(name) + "\\fR", escaped(names.joined(separator: ", "))]
        }
        lines += [
            ".TP", "\\fBgeocode\\fR",
            escaped(
                "lat, lon (the coordinate asked about; geocode --batch: the input point), city, state, country, country_code, timezone, place_lat, place_lon (the place's own point), population, distance_m; --batch: line and error for a line that is no point."
            ),
        ]
        lines.append(".SH EXAMPLES")
        for example in Usage.examples {
            lines += [".TP", "\\fB" + escaped(example.command.replacing("locate", with: program)) + "\\fR", escaped(example.meaning)]
        }
        lines += [".SH SEE ALSO", "\\fBgpsd\\fR(8), \\fBgpspipe\\fR(1)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe in roff: backslashes doubled, hyphens as \-, and no line starting with a dot or quote.
    private static func escaped(_ text: String) -> String {
        let body = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}
