/// A settings or policy file that cannot be used. `locate` fails closed on it: nothing is
/// printed on stdout and no gpsd connection is made.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// The 1-based line of the problem, or `nil` when the whole file is the problem (unreadable).
    public var line: Int?
    /// The 1-based column of the problem on that line, or `nil`.
    public var column: Int?
    /// What is wrong, and what was expected.
    public var message: String

    /// Creates an error for `file` at `line` and `column`.
    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, as compilers print it, with any control character (from
    /// the path or a quoted value) made visible.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return UntrustedText.visible(place + ": " + message)
    }
}
