import GPSLocationConsent
import GPSLocationMQTT
import LocateSupport

/// The MQTT set-up `publish` and the fleet commands (`--subscribe`, `--publish`) share: a
/// broker's configuration with the settings' credentials, a client started, and why either
/// cannot be had, with the exit status.
enum MQTTSetup {
    /// Why a client or a subscription cannot be had: what to say, and the exit status.
    struct Failure: Error {
        let message: String
        let status: ExitStatus
    }

    /// How long a clean end waits for the broker to take what is queued (and `publish`'s `offline`).
    static let finishDeadline = Duration.seconds(3)

    /// The configuration for `broker` in protocol `version`: the password from `[mqtt]
    /// password-file` (a private file of the user's; `[http] password-file` for an HTTP
    /// endpoint), the CA file from `[mqtt] ca-file` (`[http] ca-file`); for publishing and
    /// subscribing alike.
    /// - Throws: `Failure`: 78 for a file that cannot be trusted or read, 64 for a password without a user.
    static func configuration(
        _ broker: MQTTBroker, settings: ConsentSettings, version: MQTTConfiguration.ProtocolVersion
    ) throws(Failure) -> MQTTConfiguration {
        let section = broker.isHTTP ? "http" : "mqtt"
        var password: String?
        if let passwordFile = broker.isHTTP ? settings.httpPasswordFile : settings.mqttPasswordFile {
            guard broker.user != nil else {
                throw Failure(
                    message: broker.isHTTP
                        ? "[http] password-file is set but the URL names no user (http[s]://USER@HOST/PATH)"
                        : "[mqtt] password-file is set but the URL names no user (mqtt://USER@HOST/TOPIC)", status: .usage)
            }
            password = try read(passwordFile, what: "[\(section)] password-file", owner: .userPrivate)
        }
        let caFile = broker.isHTTP ? settings.httpCAFile : settings.mqttCAFile
        if let caFile { _ = try read(caFile, what: "[\(section)] ca-file", owner: .userOrRoot) }
        return MQTTConfiguration(broker: broker, password: password, caFile: caFile, protocolVersion: version)
    }

    /// A client of `configuration`, started.
    /// - Throws: `Failure` with the status of the client's error (`ExitStatus(_:)`).
    static func client(_ configuration: MQTTConfiguration) throws(Failure) -> MQTTClient {
        do throws(MQTTError) {
            let client = try MQTTClient(configuration: configuration)
            try client.start()
            return client
        } catch {
            throw Failure(message: error.description, status: ExitStatus(error))
        }
    }

    /// The first line of the file at `path`, checked as `owner`'s (every directory on the way too).
    private static func read(_ path: String, what: String, owner: TrustedFile.Owner) throws(Failure) -> String {
        let shown = UntrustedText.visible(path, limit: 200)
        let bytes: [UInt8]?
        do throws(TrustedFile.Refusal) {
            try TrustedFile.checkPath(path, to: .file, owner: owner)
            bytes = try TrustedFile.read(path, owner: owner, limit: 64 * 1024)
        } catch {
            throw Failure(message: "\(what) \(shown) \(error.description)", status: .configuration)
        }
        guard let bytes else { throw Failure(message: "\(what) \(shown) does not exist", status: .configuration) }
        return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }
}
