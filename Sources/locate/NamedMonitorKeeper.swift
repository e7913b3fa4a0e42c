import GPSLocation
import GPSLocationConsent
import Synchronization

/// What `locate monitor --name` keeps between runs: the monitor's records as the events handed
/// out leave them, kept by the consent store after each event (which keeps them only while the
/// files authorize it, and purges them on a deny). Only handed-out events change the records, so
/// an event dropped at the gate is never kept either.
final class NamedMonitorKeeper: Sendable {
    private let name: String
    private let store: ConsentStore
    private let records: Mutex<[MonitoringRecord]>

    init?(monitor: RegionMonitor, store: ConsentStore) {
        guard let name = monitor.name else { return nil }
        self.name = name
        self.store = store
        records = Mutex(monitor.records)
    }

    /// Notes `event`, handed out under `authorization` (`nil`: a replay), and keeps the records;
    /// `GPSLocationError.invalidSettings` when they cannot be kept.
    func keep(_ event: RegionEvent, releasedUnder authorization: Authorization?) -> Result<Void, GPSLocationError> {
        let current = records.withLock { records in
            if let index = records.firstIndex(where: { $0.region.name == event.region.name }) { records[index] = MonitoringRecord(event) }
            return records
        }
        do throws(GPSLocationError) {
            try store.keep(current, ofMonitorNamed: name, releasedUnder: authorization)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
