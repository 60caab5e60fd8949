import Testing
@testable import RemoteMQTT

@Suite struct ReconnectScheduleTests {
    @Test func theWaitDoublesFromOneSecondToAMinuteAndStartsAgainAfterAConnection() {
        var schedule = ReconnectSchedule()
        let waits = (0..<9).map { schedule.failed(reason: "refused", at: Double($0)).wait }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        _ = schedule.connected(at: 100)
        #expect(schedule.failed(reason: "lost", at: 200).wait == 1)
    }

    @Test func aBrokerAwayAtStartIsReportedOnceAndItsArrivalOnce() {
        var schedule = ReconnectSchedule()
        let reports = (0..<5).map { schedule.failed(reason: "Connection refused", at: Double($0)).report }
        #expect(reports == [.cannotConnect(reason: "Connection refused"), nil, nil, nil, nil])
        #expect(schedule.connected(at: 30) == .reconnected(failedAttempts: 5, seconds: 30))
    }

    @Test func aLostConnectionIsReportedOnceAndTheReconnectOnce() {
        var schedule = ReconnectSchedule()
        #expect(schedule.connected(at: 0) == .connected)
        #expect(schedule.failed(reason: "keepalive", at: 10).report == .lost(reason: "keepalive"))
        #expect(schedule.failed(reason: "refused", at: 11).report == nil)
        #expect(schedule.connected(at: 13) == .reconnected(failedAttempts: 2, seconds: 3))
        // The next outage is a new one, reported again.
        #expect(schedule.failed(reason: "reset", at: 50).report == .lost(reason: "reset"))
    }
}
