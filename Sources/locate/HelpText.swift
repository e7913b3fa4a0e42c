/// `locate --help`, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout, rendered from `Usage`.
///
/// Rendered in one pass over the tables' UTF-8 bytes into one buffer (a column is a scalar: the
/// help is plain text). For the name `locate` the pages are rendered at build time
/// (`HelpPages`, written by `make generated` and checked by its test), so that `--help` costs
/// what `--version` does: the tables themselves take the Swift runtime longer to build than
/// the page to print.
enum HelpText {
    /// The help of every command (`command` `nil`), or of one (`""` for `locate` itself), with
    /// `program` as the name it was run as.
    static func text(for command: String? = nil, program: String = "locate") -> String {
        if program == "locate", let page = HelpPages.page(command) { return page }
        return rendered(for: command, program: program)
    }

    /// ``text(for:program:)``, rendered from the tables now.
    static func rendered(for command: String?, program: String) -> String {
        let spec = command.map { CommandTable.command($0) ?? CommandTable.positions }
        var page = Page()
        if let spec {
            page.wrap(spec.summary, first: "OVERVIEW: ", indent: "          ")
        } else {
            page.wrap(Usage.overview, first: "OVERVIEW: ", indent: "          ")
        }
        page.line("")
        var first = true
        for usage in Usage.usageLines where command == nil || usage.commands.contains(command ?? "") {
            page.line((first ? "USAGE: " : "       ") + program + " " + usage.line)
            first = false
        }
        let arguments = Usage.arguments.filter { command == nil || $0.commands.contains(command ?? "") }
        if !arguments.isEmpty { page.section("ARGUMENTS:") }
        for argument in arguments { page.entry(argument.name, argument.help) }
        page.section("OPTIONS:")
        for option in OptionTable.options where spec.map({ option.applies(to: $0) }) ?? true {
            page.entry(option.flags.joined(separator: ", ") + (option.value.map { " " + $0 } ?? ""), option.help)
        }
        if spec == nil {
            page.section("COMMANDS:")
            for command in CommandTable.commands { page.entry(command.name, command.summary) }
            page.section("EXIT STATUS:")
            for status in Usage.exitStatuses { page.entry(String(status.code), status.meaning) }
            page.section("FILES:")
            for file in Usage.files { page.entry(file.path, file.meaning) }
            page.line("")
            page.bytes += Usage.footer.utf8
            page.line("")
            let pages = ManualPage.all.map { $0.name.replacing("locate", with: program) + "(\($0.section))" }
            page.line("")
            page.line("The manual: " + pages.prefix(4).joined(separator: ", ") + ",")
            page.bytes += ("            " + pages.dropFirst(4).joined(separator: ", ") + ".").utf8
        } else {
            let statuses = Usage.commandStatuses.first { $0.command == command }?.statuses ?? []
            if !statuses.isEmpty { page.section("EXIT STATUS:") }
            for status in statuses { page.entry(String(status.code), status.meaning) }
            page.line("")
            let manual = ManualPage.page(of: command ?? "").name.replacing("locate", with: program)
            page.bytes += "More: man \(manual); every status, file and command: \(program) --help.".utf8
        }
        return String(decoding: page.bytes, as: UTF8.self)
    }

    /// The help's bytes, in lines of at most 100 columns.
    private struct Page {
        static let width = 100
        /// Where an entry's text starts.
        static let textColumn = 28
        static let textIndent = [UInt8](repeating: UInt8(ascii: " "), count: textColumn)

        var bytes: [UInt8] = []

        mutating func line(_ text: String) {
            bytes += text.utf8
            bytes.append(UInt8(ascii: "\n"))
        }

        /// An empty line, then a heading.
        mutating func section(_ heading: String) {
            line("")
            line(heading)
        }

        /// A term and its text, the text indented to column 28 (on a line of its own after a
        /// term as wide as that).
        mutating func entry(_ term: String, _ text: String) {
            let head = "  " + term
            let columns = head.unicodeScalars.count
            if columns >= Self.textColumn - 1 {
                line(head)
                wrap(text, first: Self.textIndent, columns: Self.textColumn, indent: Self.textIndent)
            } else {
                let first = Array(head.utf8) + Self.textIndent[columns...]
                wrap(text, first: first, columns: Self.textColumn, indent: Self.textIndent)
            }
        }

        mutating func wrap(_ text: String, first: String, indent: String) {
            wrap(text, first: Array(first.utf8), columns: first.unicodeScalars.count, indent: Array(indent.utf8))
        }

        /// `text` wrapped at spaces, its first line starting with `first` (`columns` wide),
        /// the others with `indent` (as wide as it is long: spaces).
        private mutating func wrap(_ text: String, first: [UInt8], columns: Int, indent: [UInt8]) {
            bytes += first
            var column = columns
            var empty = true
            var wordStart = bytes.count
            var wordColumns = 0
            // The word is appended in place, then moved to a new line when it does not fit.
            func endWord(_ bytes: inout [UInt8]) {
                guard wordColumns > 0 else { return }
                if !empty, column + 1 + wordColumns > Self.width {
                    let word = Array(bytes[wordStart...])
                    bytes.removeSubrange((wordStart - 1)...)
                    bytes.append(UInt8(ascii: "\n"))
                    bytes += indent
                    bytes += word
                    column = indent.count
                } else if !empty {
                    column += 1
                }
                column += wordColumns
                empty = false
                wordColumns = 0
            }
            for byte in text.utf8 {
                if byte == UInt8(ascii: " ") {
                    if wordColumns > 0 {
                        endWord(&bytes)
                        bytes.append(byte)
                        wordStart = bytes.count
                    }
                } else {
                    bytes.append(byte)
                    if byte & 0xC0 != 0x80 { wordColumns += 1 }
                }
            }
            endWord(&bytes)
            if bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
            bytes.append(UInt8(ascii: "\n"))
        }
    }
}
