import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateFormats
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
        let field: RecordKey
        let decimals: Int?

        /// A token named as its field's key.
        init(_ field: RecordKey, decimals: Int? = nil) {
            self.init(name: field.rawValue, field: field, decimals: decimals)
        }

        init(name: String, field: RecordKey, decimals: Int?) {
            (self.name, self.field, self.decimals) = (name, field, decimals)
        }
    }

    static let tokens: [Token] = [
        Token(.latitude, decimals: 6), Token(.longitude, decimals: 6),
        Token(name: "alt", field: .altitudeMSL, decimals: nil), Token(.altitudeHAE),
        Token(.speed), Token(.course), Token(.horizontalAccuracy), Token(.verticalAccuracy),
        Token(.time), Token(.epoch), Token(.mode), Token(name: "sats", field: .satellitesUsed, decimals: nil), Token(.source),
        Token(.age), Token(.device), Token(.reason),
        Token(.fix), Token(.hdop), Token(.vdop), Token(.pdop), Token(.heading), Token(.geoidSeparation), Token(.integrity),
        Token(.city), Token(.state), Token(.country), Token(.countryCode), Token(.timeZone), Token(.place),
    ]

    /// The tokens that need the record's place looked up.
    static let placeTokens = (RecordKey.placeFields + [.place]).map(\.rawValue)

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
                guard let token = Self.tokens.first(where: { $0.name == word }), let field = RecordFields.field(token.field) else {
                    return nil
                }
                return (token, field)
            }
            guard word != RecordKey.type.rawValue, let field = table.first(where: { $0.name == word }) else { return nil }
            let isCoordinate = field.key == .latitude || field.key == .longitude
            return (Token(field.key, decimals: isCoordinate ? 6 : nil), field)
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
