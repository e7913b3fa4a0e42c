import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateSupport

/// `--format TEMPLATE`: a line built from `%token`s and literal text, parsed once.
///
/// A token is the whole word after `%` (letters, digits, `_`), so `%alt_hae` is never `%alt`
/// followed by `_hae`, and `%timezone` is the time zone, not `%time` and `zone`; put tokens
/// next to each other as `%lat%lon`. Place tokens (`%city` … `%place`) make each record's place
/// be looked up (see `PlaceFinder`). `%%` is a literal percent sign; `\n`, `\t` and `\\` are a line break, a tab and a backslash. A value that
/// is not known is written as the `--null` text (empty by default).
struct TemplateFormat: OutputFormat, Sendable {
    /// A token and the record field it writes; coordinates get six decimals, as in text output.
    struct Token: Sendable {
        let name: String
        let field: String
        let decimals: Int?
    }

    static let tokens: [Token] = [
        Token(name: "lat", field: "lat", decimals: 6), Token(name: "lon", field: "lon", decimals: 6),
        Token(name: "alt", field: "alt_msl", decimals: nil), Token(name: "alt_hae", field: "alt_hae", decimals: nil),
        Token(name: "speed", field: "speed", decimals: nil), Token(name: "course", field: "course", decimals: nil),
        Token(name: "h_acc", field: "h_acc", decimals: nil), Token(name: "v_acc", field: "v_acc", decimals: nil),
        Token(name: "time", field: "time", decimals: nil), Token(name: "epoch", field: "epoch", decimals: nil),
        Token(name: "mode", field: "mode", decimals: nil),
        Token(name: "sats", field: "sats_used", decimals: nil), Token(name: "source", field: "source", decimals: nil),
        Token(name: "age", field: "age", decimals: nil), Token(name: "device", field: "device", decimals: nil),
        Token(name: "reason", field: "reason", decimals: nil),
        Token(name: "city", field: "city", decimals: nil), Token(name: "state", field: "state", decimals: nil),
        Token(name: "country", field: "country", decimals: nil), Token(name: "country_code", field: "country_code", decimals: nil),
        Token(name: "timezone", field: "timezone", decimals: nil), Token(name: "place", field: "place", decimals: nil),
    ]

    /// The tokens that need the record's place looked up.
    static let placeTokens = ["city", "state", "country", "country_code", "timezone", "place"]

    /// The tokens as `--help` and errors list them: `%lat %lon …`. (A loop rather than
    /// `joined(separator:)`, whose generic path costs every start a protocol-conformance scan.)
    static var tokenList: String {
        var list = ""
        for token in tokens {
            list += list.isEmpty ? "%" : " %"
            list += token.name
        }
        return list
    }

    private enum Piece: Sendable {
        case literal([UInt8])
        case field(RecordField, decimals: Int?)
    }

    private let pieces: [Piece]
    let needsPlaces: Bool
    private let nullText: [UInt8]

    /// Parses `template`.
    /// - Throws: `UsageError` for an unknown token (listing the valid ones) or a lone `%` or `\`.
    init(_ template: String, nullText: String, kind: RecordKind = .fix) throws(UsageError) {
        let table = kind.fields(includingPlaces: false, devices: true)
        // A fix's tokens are the table below; an event kind's are its field names.
        func token(_ word: Substring) -> (Token, RecordField)? {
            guard kind != .fix else {
                guard let token = Self.tokens.first(where: { $0.name == word }), let field = RecordFields.named(token.field) else {
                    return nil
                }
                return (token, field)
            }
            guard word != "type", let field = table.first(where: { $0.name == word }) else { return nil }
            let isCoordinate = field.name == "lat" || field.name == "lon"
            return (Token(name: field.name, field: field.name, decimals: isCoordinate ? 6 : nil), field)
        }
        let validList = kind == .fix ? Self.tokenList : "%" + kind.tokenNames
        self.nullText = Array(nullText.utf8)
        var pieces: [Piece] = []
        var literal = ""
        var rest = Substring(template)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "%":
                if rest.first == "%" {
                    literal.append("%")
                    rest = rest.dropFirst()
                    continue
                }
                let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                // Every token names a record field (a test holds the table to it).
                guard let (token, field) = token(word) else {
                    throw UsageError(
                        message: "unknown token '%\(UntrustedText.visible(String(word), limit: 40))' in --format (valid: \(validList) %%)")
                }
                if !literal.isEmpty { pieces.append(.literal(Array(literal.utf8))) }
                literal = ""
                pieces.append(.field(field, decimals: token.decimals))
                rest = rest.dropFirst(token.name.count)
            case "\\":
                switch rest.first {
                case "n": literal.append("\n")
                case "t": literal.append("\t")
                case "\\": literal.append("\\")
                default: throw UsageError(message: "unknown escape in --format (valid: \\n \\t \\\\)")
                }
                rest = rest.dropFirst()
            default:
                literal.append(character)
            }
        }
        if !literal.isEmpty { pieces.append(.literal(Array(literal.utf8))) }
        self.pieces = pieces
        needsPlaces = pieces.contains { piece in
            if case .field(let field, _) = piece { return Self.placeTokens.contains(field.name) }
            return false
        }
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        for piece in pieces {
            switch piece {
            case .literal(let bytes):
                output += bytes
            case .field(let field, let decimals):
                var value = field.value(source)
                if let decimals, case .number(let number, _) = value { value = .number(number, decimals: decimals) }
                if !value.appendPlain(to: &output) { output += nullText }
            }
        }
        output.append(UInt8(ascii: "\n"))
        return true
    }
}
