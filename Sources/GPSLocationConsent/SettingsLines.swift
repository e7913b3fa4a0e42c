/// A settings file as lines of bytes, the one model both the reader and the editor use, so that
/// any file the reader accepts can be edited: lines end in `\n`, `\r\n`, or (the last one)
/// nothing; a UTF-8 byte-order mark may open the file. Each line keeps its own ending, so an
/// edit changes only the lines it touches, and the file's bytes come back exactly as they were
/// everywhere else.
struct SettingsLines: Equatable {
    /// The UTF-8 byte-order mark, kept in front of the first line when the file has one.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// One line: its content, without the ending, and the ending.
    struct Line: Equatable {
        var content: [UInt8]
        /// `\n`, `\r\n`, or empty for a last line without one.
        var ending: [UInt8]
    }

    var hasByteOrderMark: Bool
    var lines: [Line]

    /// The lines of `bytes`.
    init(_ bytes: [UInt8]) {
        var body = bytes[...]
        hasByteOrderMark = body.starts(with: Self.byteOrderMark)
        if hasByteOrderMark { body = body.dropFirst(Self.byteOrderMark.count) }
        lines = []
        var start = body.startIndex
        var index = start
        while index < body.endIndex {
            if body[index] == UInt8(ascii: "\n") {
                let carriageReturn = index > start && body[index - 1] == UInt8(ascii: "\r")
                let contentEnd = carriageReturn ? index - 1 : index
                lines.append(Line(content: Array(body[start..<contentEnd]), ending: carriageReturn ? [13, 10] : [10]))
                start = index + 1
            }
            index += 1
        }
        if start < body.endIndex { lines.append(Line(content: Array(body[start...]), ending: [])) }
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var result = hasByteOrderMark ? Self.byteOrderMark : []
        for line in lines { result += line.content + line.ending }
        return result
    }

    /// The ending new lines get: the file's own (that of its first line), `\n` for a new file.
    var newLineEnding: [UInt8] {
        lines.first { !$0.ending.isEmpty }?.ending ?? [10]
    }

    /// Inserts lines with the given contents before index `position` (`lines.count`: at the end),
    /// giving a last line that had no ending one first.
    mutating func insert(_ contents: [[UInt8]], at position: Int) {
        let ending = newLineEnding
        if position == lines.count, let last = lines.indices.last, lines[last].ending.isEmpty { lines[last].ending = ending }
        lines.insert(contentsOf: contents.map { Line(content: $0, ending: ending) }, at: position)
    }
}
