/// The man pages in roff (man macros): each ``ManualPage`` rendered from the same tables as
/// `--help` (usage lines, options, exit statuses, environment, files) and its prose, which is
/// written in a small Markdown (`## heading`, `### subheading`, paragraphs, `- ` items, tables,
/// fenced code, `code` and **bold**). The tracked copies are Scripts/man/; a test checks they
/// are what this renders, and `make install` installs what the installed binary renders for the
/// name it runs as.
enum ManPage {
    /// The page named `name` (`locate`, `locate-serve`, `locate.conf`, ...), for the command
    /// installed as `program`, or `nil` for a page there is not.
    static func text(_ name: String = "locate", program: String = "locate") -> String? {
        ManualPage.all.first { $0.name == name }.map { render($0, program: program) }
    }

    /// The file name a page is installed as, for the command installed as `program`
    /// (`gps-locate-serve.1`).
    static func fileName(of page: ManualPage, program: String) -> String {
        page.name.replacing("locate", with: program) + "." + String(page.section)
    }

    private static func render(_ page: ManualPage, program: String) -> String {
        let name = page.name.replacing("locate", with: program)
        var lines = [
            ".TH \(escaped(name.uppercased())) \(page.section) \"\" \"\(escaped(program)) \(Usage.version)\" \"\(page.manual)\"",
            ".SH NAME",
            escaped(name) + " \\- " + escaped(page.summary),
            // Left-aligned and unhyphenated: records, keys and paths are not to be stretched or cut.
            ".ad l", ".nh",
        ]
        if !page.commands.isEmpty {
            lines.append(".SH SYNOPSIS")
            for usage in Usage.usageLines where usage.commands.contains(where: page.commands.contains) {
                lines += [".nf", escaped(program + " " + usage.line), ".fi"]
            }
            if page.commands.contains("") {
                lines += [".nf", escaped(program + " COMMAND [options]") + "   (" + escaped("see COMMANDS") + ")", ".fi"]
            }
        }
        lines += prose(page.description, program: program)
        if page.commands.contains("") {
            lines.append(".SH COMMANDS")
            for command in CommandTable.commands {
                let home = ManualPage.all.first { $0.commands.contains(command.name) && $0.name != "locate" }
                let see = home.map { " See \\fB" + escaped(String(fileName(of: $0, program: program).dropLast(2))) + "\\fR(1)." } ?? ""
                lines += [".TP", "\\fB" + escaped(command.name) + "\\fR", escaped(command.summary) + see]
            }
        }
        let arguments = Usage.arguments.filter { $0.commands.contains(where: page.commands.contains) }
        if !arguments.isEmpty { lines.append(".SH ARGUMENTS") }
        for argument in arguments {
            lines += [".TP", "\\fI" + escaped(argument.name) + "\\fR", escaped(argument.help)]
        }
        let specs = page.commands.compactMap { $0.isEmpty ? CommandTable.positions : CommandTable.command($0) }
        let options = OptionTable.options.filter { option in
            option.scopes.map { _ in specs.contains { option.applies(to: $0) } } ?? page.commands.contains("")
        }
        if !options.isEmpty { lines.append(".SH OPTIONS") }
        for option in options {
            let flags = option.flags.map { "\\fB" + escaped($0) + "\\fR" }.joined(separator: ", ")
            lines += [".TP", flags + (option.value.map { " \\fI" + escaped($0) + "\\fR" } ?? ""), escaped(option.help)]
        }
        lines += prose(page.details, program: program)
        let statuses = Usage.commandStatuses.filter { page.commands.contains($0.command) }
        if !statuses.isEmpty || page.commands.contains("") { lines.append(".SH EXIT STATUS") }
        if page.commands.contains("") {
            for status in Usage.exitStatuses {
                lines += [".TP", "\\fB\(status.code)\\fR", escaped(status.meaning)]
            }
        }
        for command in statuses {
            if statuses.count > 1 || page.commands.contains("") {
                lines.append(
                    ".SS " + escaped(command.command.isEmpty ? "\(program), \(program) --follow" : program + " " + command.command))
            }
            for status in command.statuses {
                lines += [".TP", "\\fB\(status.code)\\fR", escaped(status.meaning)]
            }
        }
        if page.commands.contains("") {
            lines.append(".SH ENVIRONMENT")
            for variable in Usage.environment {
                lines += [".TP", "\\fB" + escaped(variable.name) + "\\fR", escaped(variable.meaning)]
            }
        }
        if page.listsFiles {
            lines.append(".SH FILES")
            for file in Usage.files {
                lines += [".TP", "\\fI" + escaped(file.path) + "\\fR", escaped(file.meaning)]
            }
        }
        if page.showsSettings {
            lines += [".SH SETTINGS", escaped(Usage.settingsIntroduction), ".PP", ".nf"]
            lines += Usage.settingsSyntax.map(escaped)
            lines.append(".fi")
        }
        if page.commands.contains("") {
            lines += [".SH JSON FIELDS", escaped("With --json, one object a line; with --csv, the same fields as columns.")]
            let kinds: [(kind: RecordKind, name: String)] = [
                (.fix, "fix (--geocode adds the last five)"), (.region, "region"), (.visit, "visit"),
            ]
            for (kind, name) in kinds {
                let names = kind.fields(includingPlaces: kind == .fix).map(\.name)
                lines += [".TP", "\\fB" + escaped(name) + "\\fR", escaped(names.joined(separator: ", "))]
            }
            lines += [".TP", "\\fBgeocode\\fR", escaped(Usage.geocodeFields)]
        }
        let examples = Usage.examples.filter { page.commands.contains($0.command) }
        if !examples.isEmpty { lines.append(".SH EXAMPLES") }
        for example in examples {
            lines += [".TP", "\\fB" + escaped(example.line.replacing("locate", with: program)) + "\\fR", escaped(example.meaning)]
        }
        let others = ManualPage.all.filter { $0.name != page.name }.map {
            "\\fB" + escaped(String(fileName(of: $0, program: program).dropLast(2))) + "\\fR(\($0.section))"
        }
        lines += [".SH SEE ALSO", (others + ["\\fBgpsd\\fR(8)", "\\fBgpspipe\\fR(1)"]).joined(separator: ", ")]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The roff of `markdown` (see the type's summary); `locate` at the start of a command line
    /// in a code block becomes `program`.
    static func prose(_ markdown: String, program: String) -> [String] {
        var lines: [String] = []
        var paragraph: [String] = []
        var inCode = false
        // The fence's indentation (a block inside an item), taken off each line of the block.
        var codeIndent = 0
        var isItem = false
        func flush() {
            guard !paragraph.isEmpty else { return }
            lines += [isItem ? ".IP \\(bu 2" : ".PP", inline(paragraph.joined(separator: " "))]
            paragraph = []
            isItem = false
        }
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indent = line.prefix { $0 == " " }.count
            if line.dropFirst(indent).hasPrefix("```") {
                flush()
                lines += inCode ? [".fi", ".RE"] : [".PP", ".RS \(4 + indent)", ".nf"]
                inCode.toggle()
                codeIndent = indent
            } else if inCode {
                let code = String(line.dropFirst(min(indent, codeIndent)))
                let command = code.hasPrefix("$ locate") ? "$ " + program + code.dropFirst(8) : code
                lines.append(escaped(command))
            } else if line.hasPrefix("## ") {
                flush()
                lines += [".SH " + inline(String(line.dropFirst(3)).uppercased())]
            } else if line.hasPrefix("### ") {
                flush()
                lines += [".SS " + inline(String(line.dropFirst(4)))]
            } else if line.hasPrefix("|") {
                flush()
                let cells = line.split(separator: "|").map { $0.trimmingSpaces }
                guard !(cells.first ?? "").hasPrefix("---") else { continue }
                lines += [".TP", inline(cells.first ?? ""), inline(cells.dropFirst().joined(separator: "; "))]
            } else if line.hasPrefix("- ") {
                flush()
                isItem = true
                paragraph.append(String(line.dropFirst(2)))
            } else if line.allSatisfy({ $0 == " " }) {
                flush()
            } else {
                paragraph.append(line.trimmingSpaces)
            }
        }
        flush()
        return lines
    }

    /// One line of prose in roff: escaped, with `code` and **bold** in bold and a link as its
    /// text.
    private static func inline(_ text: String) -> String {
        var body = escaped(text)
        body = body.replacing(/\*\*([^*]+)\*\*/) { "\\fB" + $0.1 + "\\fR" }
        // A long code span may break after a comma or a slash (`\:`), not overflow the line.
        body = body.replacing(/`([^`]+)`/) {
            "\\fB" + $0.1.replacing(",", with: ",\\:").replacing("/", with: "/\\:") + "\\fR"
        }
        body = body.replacing(/\[([^\]]+)\]\(([^)]+)\)/) { String($0.1) }
        body = body.replacing(/(^|[ (])\*([^* ][^*]*)\*/) { $0.1 + "\\fI" + $0.2 + "\\fR" }
        return body.hasPrefix("\\&") || !(body.hasPrefix(".") || body.hasPrefix("'")) ? body : "\\&" + body
    }

    /// Text safe in roff: backslashes doubled, hyphens as \-, and no line starting with a dot or quote.
    private static func escaped(_ text: String) -> String {
        let body = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }
}

extension StringProtocol {
    /// The text without the spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
