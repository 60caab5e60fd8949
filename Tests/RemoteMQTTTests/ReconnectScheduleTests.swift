import Testing
@testable import RemoteMQTT

@Suite struct ReconnectScheduleTests {
    @Test func theWaitDoublesFromOneSecondToAMinuteAndStartsAgainAfterAConnectionThatHeld() {
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
        // Held 37 s: the next outage is a new one, reported again, and waits 1 s again.
        let next = schedule.failed(reason: "reset", at: 50)
        #expect(next.report == .lost(reason: "reset"))
        #expect(next.wait == 1)
    }

    /// Only a connection that stayed up `stableAfter` starts the waits again: one dropped after
    /// 29 s is one more failure, one dropped after 30 s is not.
    @Test func aConnectionResetsTheBackoffOnlyOnceItHasHeldThirtySeconds() {
        var schedule = ReconnectSchedule()
        #expect(schedule.connected(at: 0) == .connected)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<4 {
            now += 29
            let (wait, _) = schedule.failed(reason: "reset", at: now)
            waits.append(wait)
            now += wait
            _ = schedule.connected(at: now)
        }
        #expect(waits == [1, 2, 4, 8])
        #expect(schedule.connectionHeld(at: now + 29.9) == nil)
        // Held: the losses are over, said once, and the next loss waits 1 s.
        // From the first loss (29 s) to 30 s after the last connection (131 s).
        let held: ReconnectSchedule.Report? = .stable(losses: 4, seconds: 132)
        #expect(schedule.connectionHeld(at: now + 30) == held)
        #expect(schedule.connectionHeld(at: now + 31) == nil)
        let next = schedule.failed(reason: "reset", at: now + 40)
        #expect(next.wait == 1 && next.report == .lost(reason: "reset"))
    }

    /// A broker that accepts each connection and drops it 100 ms after the CONNACK, for a day of
    /// virtual time: the client connects about once a minute (the longest wait) and the log has a
    /// line at the first loss, its reconnect, the first repeat and then one every 15 minutes; a
    /// client that reset its wait at each CONNACK would connect 40,000 times and log 80,000 lines.
    @Test func aBrokerThatDropsEachConnectionIsTriedOnceAMinuteAndLoggedEveryFifteen() {
        var schedule = ReconnectSchedule()
        var now = 0.0
        var connections = 0
        var lines: [ReconnectSchedule.Report] = []
        var lateWaits: Set<Double> = []
        while now < 86_400 {
            if let report = schedule.connected(at: now) { lines.append(report) }
            connections += 1
            now += 0.1
            if let report = schedule.connectionHeld(at: now) { lines.append(report) }
            let (wait, report) = schedule.failed(reason: "connection reset", at: now)
            if let report { lines.append(report) }
            if now > 600 { lateWaits.insert(wait) }
            now += wait
        }
        #expect(lateWaits == [60])
        #expect(connections >= 1440 && connections <= 1450, "\(connections)")
        #expect(lines.count <= 3 + 96, "\(lines.count)")
        #expect(lines.prefix(2) == [.connected, .lost(reason: "connection reset")])
        guard case .reconnected(failedAttempts: 1, _) = lines[2] else {
            Issue.record("\(lines[2])")
            return
        }
        guard case .lostAgain(_, let times, _) = lines[3] else {
            Issue.record("\(lines[3])")
            return
        }
        #expect(times == 1)
        // Every loss is counted in some line: nothing said is lost.
        let counted = lines.reduce(1) { sum, line in
            if case .lostAgain(_, let times, _) = line { return sum + times }
            return sum
        }
        #expect(counted + schedule.trouble!.lossesUnreported == connections)
        for line in lines.dropFirst(4) {
            guard case .lostAgain(_, let times, let seconds) = line else {
                Issue.record("\(line)")
                continue
            }
            // 15 or 16 losses a minute apart in each 15 minutes; the first line after the repeat
            // also counts those of the waits up to a minute.
            #expect(seconds >= 900 && seconds < 961 && times >= 15 && times <= 20, "\(line)")
        }
    }

    @Test func aBrokerAwayAtStartThatThenDropsEachConnectionReportsTheFirstLossWithItsReason() {
        var schedule = ReconnectSchedule()
        #expect(schedule.failed(reason: "Connection refused", at: 0).report == .cannotConnect(reason: "Connection refused"))
        #expect(schedule.connected(at: 1) == .reconnected(failedAttempts: 1, seconds: 1))
        let first = schedule.failed(reason: "reset by peer", at: 1.1)
        #expect(first.report == .lost(reason: "reset by peer"))
        #expect(first.wait == 2)
        #expect(schedule.connected(at: 3.1) == nil)
        #expect(schedule.failed(reason: "reset by peer", at: 3.5).report == .lostAgain(reason: "reset by peer", times: 1, seconds: 3.5))
    }
}
