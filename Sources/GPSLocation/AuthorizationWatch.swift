/// The authorization a live stream hands positions out under, as a value any thread can ask.
///
/// For a host that hands records made of the stream's positions out later and elsewhere (a
/// publisher's queue that waits through a broker outage): it notes ``changes`` when it takes a
/// position from the stream, and at the moment it hands the record out it checks that the
/// count is still the same, as the stream's own gate does with the fixes waiting in it. Any
/// change (a revoke, a pause, a switch of accuracy, even one undone at once) makes every record
/// taken before it stale (see ``LiveUpdates/Iterator/authorizationChanges``).
public struct AuthorizationWatch: Sendable {
    let generation: AuthorizationGeneration

    /// How many times the authorization has changed since the stream started.
    public var changes: Int { generation.current.generation }

    /// The authorization positions are released under now.
    public var authorization: Authorization { generation.current.authorization }
}

extension LiveUpdates.Iterator {
    /// A watch of this stream's authorization, to check from any thread, at the moment a
    /// record made of a position is handed out, that it was taken under the authorization of now.
    public var authorizationWatch: AuthorizationWatch { AuthorizationWatch(generation: session.authorization) }
}
