import GPSLocation
import GPSLocationConsent

/// What `Locate` builds once for a command that reads positions, and hands to the command's
/// type: the options, the consent store and its settings, gpsd's configuration, the manager (over
/// gpsd, or over the replayed track), the messages that explain authorization, and the writer
/// of records.
struct CommandContext {
    let options: CommandLineOptions
    let store: ConsentStore
    let settings: ConsentSettings
    let configuration: GPSLocationConfiguration
    /// The track played instead of gpsd (`--replay`), if any.
    let replay: ReplayTrack?
    let manager: GPSLocationManager
    let explainer: AuthorizationMessages
    let writer: RecordWriter
}
