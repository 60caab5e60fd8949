import Glibc

/// Median and 99th percentile of repeated runs, in milliseconds.
struct Timing {
    let median: Double
    let p99: Double
    let runs: Int
}

enum Stopwatch {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Runs `body` a few times to warm caches and branch predictors, then at least `minRuns` and
    /// at most `maxRuns` times, stopping once `budget` seconds have passed.
    static func measure(minRuns: Int = 20, maxRuns: Int = 200, budget: Double = 1, warmUp: Int = 3,
                        _ body: () -> Void) -> Timing {
        for _ in 0..<warmUp { body() }
        var samples: [Double] = []
        let start = now()
        while samples.count < minRuns || (samples.count < maxRuns && now() - start < budget) {
            let t0 = now()
            body()
            samples.append((now() - t0) * 1000)
        }
        samples.sort()
        let p99 = samples[min(samples.count - 1, Int((Double(samples.count) * 0.99).rounded(.up)) - 1)]
        return Timing(median: samples[samples.count / 2], p99: p99, runs: samples.count)
    }
}

extension Stopwatch {
    /// `first` and `second` measured in alternation, so that load from other processes, which
    /// comes and goes, weighs on both alike and their ratio stays fair. Each timed run follows an
    /// untimed one of the same operation: a full frame's pictures are 8 MB each, and otherwise
    /// each side would start from a cache the other had just filled with its own pictures (and
    /// pay for writing back the other's dirty lines), which skews the memory-bound rows by more
    /// than their difference.
    static func measurePair(minRuns: Int = 20, maxRuns: Int = 200, budget: Double = 2, warmUp: Int = 3,
                            _ first: () -> Void, _ second: () -> Void) -> (Timing, Timing) {
        for _ in 0..<warmUp { first(); second() }
        var a: [Double] = [], b: [Double] = []
        func timed(_ body: () -> Void) -> Double {
            body()
            let t0 = now()
            body()
            return (now() - t0) * 1000
        }
        let start = now()
        while a.count < minRuns || (a.count < maxRuns && now() - start < budget) {
            a.append(timed(first))
            b.append(timed(second))
        }
        return (timing(a), timing(b))
    }

    static func timing(_ samples: [Double]) -> Timing {
        let sorted = samples.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        return Timing(median: sorted[sorted.count / 2], p99: p99, runs: sorted.count)
    }
}

/// Pins the process to one CPU (the last one it may run on), so the timings are single-core ones
/// and do not move between cores. Returns that CPU, or nil if the kernel refused. Glibc declares
/// sched_{get,set}affinity only under _GNU_SOURCE, which Swift's Glibc module does not see, so
/// they are looked up with dlsym.
func pinToOneCore() -> Int? {
    typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    guard let libc = dlopen(nil, RTLD_NOW),
          let getSymbol = dlsym(libc, "sched_getaffinity"), let setSymbol = dlsym(libc, "sched_setaffinity")
    else { return nil }
    let getAffinity = unsafeBitCast(getSymbol, to: Affinity.self)
    let setAffinity = unsafeBitCast(setSymbol, to: Affinity.self)
    // cpu_set_t: 1024 bits.
    var allowed = [UInt64](repeating: 0, count: 16)
    guard allowed.withUnsafeMutableBytes({ getAffinity(0, $0.count, $0.baseAddress!) }) == 0 else { return nil }
    guard let word = allowed.lastIndex(where: { $0 != 0 }) else { return nil }
    let cpu = word * 64 + 63 - allowed[word].leadingZeroBitCount
    var one = [UInt64](repeating: 0, count: 16)
    one[word] = 1 << UInt64(cpu % 64)
    return one.withUnsafeMutableBytes({ setAffinity(0, $0.count, $0.baseAddress!) }) == 0 ? cpu : nil
}
