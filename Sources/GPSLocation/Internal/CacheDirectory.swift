/// Where `locate` keeps what it can rebuild: `$XDG_CACHE_HOME/locate` (an absolute
/// `XDG_CACHE_HOME` only, as the XDG base directory specification says), else `~/.cache/locate`.
enum CacheDirectory {
    static func path(_ environment: [String: String]) -> String {
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? "") + "/.cache")
        return cacheHome + "/locate"
    }
}
