extension MQTTBroker {
    /// Whether `filter` can be subscribed to: 1 to ``maximumTopicLength`` bytes, no control
    /// character, `+` only as a whole level and `#` only as the whole last level.
    public static func checkFilter(_ filter: String) throws(MQTTError) {
        guard !filter.isEmpty, filter.utf8.count <= maximumTopicLength else {
            throw .invalidURL("the topic filter must have 1 to 65535 bytes")
        }
        guard filter.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else {
            throw .invalidURL("the topic filter has a control character")
        }
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in levels.enumerated() {
            if level.contains("+"), level != "+" { throw .invalidURL("'+' stands for a whole level of the topic filter") }
            if level.contains("#"), level != "#" || index != levels.count - 1 {
                throw .invalidURL("'#' stands for the whole last level of the topic filter")
            }
        }
    }
}
