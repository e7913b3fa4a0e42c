/// How place names are compared when searched for: case and the diacritics of Latin letters do
/// not count, so "sao paulo", "São Paulo" and "SAO PAULO" are one name, as are "zurich" and
/// "Zürich", "malmo" and "Malmö", "lodz" and "Łódź". Letters of other scripts are compared as
/// they are, lower-cased.
enum PlaceNameFolding {
    /// `text` folded: lower case, Latin letters without their diacritics, as UTF-8.
    static func fold(_ text: some StringProtocol) -> [UInt8] {
        var folded: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                folded.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            } else if let base = latinBases[scalar] {
                folded += base.utf8
            } else {
                folded += scalar.properties.lowercaseMapping.utf8
            }
        }
        return folded
    }

    /// The letters of Latin-1 Supplement and Latin Extended-A and -B with a diacritic (or a
    /// ligature), and the plain letters they fold to, in the same order.
    private static let latinLetters = [
        "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçè",
        "éêëìíîïðñòóôõöøùúûüýþÿĀāĂăĄąĆćĈĉĊċČčĎďĐđ",
        "ĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĴĵĶķĸĹĺĻ",
        "ļĽľŁłŃńŅņŇňŊŋŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦ",
        "ŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘ",
        "ǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐ",
        "ȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ",
    ].joined()
    private static let plainLetters = [
        "a a a a a a ae c e e e e i i i i d n o o o o o o u u u u y th ss a a a a a a ae c e",
        "e e e i i i i d n o o o o o o u u u u y th y a a a a a a c c c c c c c c d d d d",
        "e e e e e e e e e e g g g g g g g g h h h h i i i i i i i i i i j j k k k l l l",
        "l l l l l n n n n n n n n o o o o o o oe oe r r r r r r s s s s s s s s t t t t t",
        "t u u u u u u u u u u u u w w y y y z z z z z z o o u u a a i i o o u u u u u u",
        "u u u u a a a a g g k k o o o o j g g n n a a a a a a e e e e i i i i o o o o r",
        "r r r u u u u s s t t h h a a e e o o o o o o o o y y",
    ].joined(separator: " ").split(separator: " ")

    private static let latinBases: [Unicode.Scalar: Substring] = {
        var bases: [Unicode.Scalar: Substring] = [:]
        for (letter, base) in zip(latinLetters.unicodeScalars, plainLetters) {
            bases[letter] = base
        }
        return bases
    }()
}
