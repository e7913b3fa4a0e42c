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
        lines.append(".SH FILES")
        for file in Usage.files {
            lines += [".TP", "\\fI" + escaped(file.path) + "\\fR", escaped(file.meaning)]
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
