/// `locate --help`, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout, rendered from `Usage`.
enum HelpText {
    static var text: String {
        var lines = wrapped(Usage.overview, first: "OVERVIEW: ", indent: "          ") + [""]
        lines.append("USAGE: " + Usage.usageLines[0])
        lines += Usage.usageLines.dropFirst().map { "       " + $0 }
        lines += ["", "ARGUMENTS:"]
        lines += entry(Usage.argument.name, Usage.argument.help)
        lines += ["", "OPTIONS:"]
        for option in OptionTable.options {
            lines += entry(option.flags.joined(separator: ", ") + (option.value.map { " " + $0 } ?? ""), option.help)
        }
        lines += ["", "EXIT STATUS:"]
        for status in Usage.exitStatuses {
            lines += entry(String(status.code), status.meaning)
        }
        lines += ["", "FILES:"]
        for file in Usage.files {
            lines += entry(file.path, file.meaning)
        }
        lines += ["", Usage.footer]
        return lines.joined(separator: "\n")
    }

    /// A term and its text, the text indented to column 28.
    private static func entry(_ term: String, _ text: String) -> [String] {
        let indent = String(repeating: " ", count: 28)
        let head = "  " + term
        if head.count >= 27 {
            return [head] + wrapped(text, first: indent, indent: indent)
        }
        return wrapped(text, first: head + String(repeating: " ", count: 28 - head.count), indent: indent)
    }

    /// `text` in lines of at most 100 columns, the first starting with `first`, the others with `indent`.
    private static func wrapped(_ text: String, first: String, indent: String) -> [String] {
        var lines: [String] = []
        var current = first
        var empty = true
        for word in text.split(separator: " ") {
            if !empty, current.count + 1 + word.count > 100 {
                lines.append(current)
                current = indent
                empty = true
            }
            current += (empty ? "" : " ") + word
            empty = false
        }
        return lines + [current]
    }
}
