import Config
import Quoting
import RunLoopRules

/// What is wrong with one value, before the loader adds where it is.
struct Complaint: Error, Equatable {
    var kind: ConfigError.Kind
    var message: String
}

/// One key of the config file: how its TOML value is read into `Settings` and written back.
struct SettingKey {
    let name: String
    /// Reads `value` into `settings`; `key` is the full `table.key`, for messages.
    let read: (_ value: TOMLValue, _ key: String, _ settings: inout Settings) -> Complaint?
    /// The value as a TOML literal; nil when the key is left out (an absent calibration).
    let render: (Settings) -> String?
    /// What leaving the key out means, for `describe()`, as TOML has no null.
    let absentMeaning: String
    /// Valid values as TOML literals, at least two different ones: `SettingsSchemaTests` set each
    /// to check that the key writes a field of `Settings`, and which.
    let samples: [String]
    /// A time in seconds, read by the one rule for durations (`duration`).
    private(set) var isDuration = false

    init<Value>(_ name: String, _ field: WritableKeyPath<Settings, Value>,
                decode: @escaping (TOMLValue, String) -> Result<Value, Complaint>,
                encode: @escaping (Value) -> String?, absentMeaning: String = "the default", samples: [String]) {
        self.name = name
        self.absentMeaning = absentMeaning
        self.samples = samples
        read = { value, key, settings in
            switch decode(value, key) {
            case .success(let decoded):
                settings[keyPath: field] = decoded
                return nil
            case .failure(let complaint):
                return complaint
            }
        }
        render = { settings in encode(settings[keyPath: field]) }
    }
}

// MARK: - Kinds of value

extension SettingKey {
    static func integer(_ name: String, _ field: WritableKeyPath<Settings, Int>, in range: ClosedRange<Int>,
                        unit: String = "") -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            guard let integer = value.int else {
                return .failure(wrongType(key, "must be an integer", value))
            }
            guard range.contains(integer) else {
                return .failure(Complaint(kind: .outOfRange, message:
                    "`\(key)` = \(integer) is out of range \(range.lowerBound)...\(range.upperBound)\(unit)"))
            }
            return .success(integer)
        }, encode: { "\($0)" }, samples: ["\(range.lowerBound)", "\(range.upperBound)"])
    }

    /// A float; integers are accepted too (`duration = 1`).
    static func number(_ name: String, _ field: WritableKeyPath<Settings, Double>, in range: ClosedRange<Double>,
                       unit: String = "") -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            guard let number = numberValue(value) else {
                return .failure(wrongType(key, "must be a number", value))
            }
            guard range.contains(number) else {
                return .failure(Complaint(kind: .outOfRange, message:
                    "`\(key)` = \(formatNumber(number)) is out of range \(formatRange(range))\(unit)"))
            }
            return .success(number)
        }, encode: { "\($0)" }, samples: ["\(range.lowerBound)", "\(range.upperBound)"])
    }

    /// A time in seconds within `range`, or 0 when `zero` says what 0 means ("never"). Every
    /// duration key is read by this one rule, so none takes a value that passes a plain range
    /// but makes no sense: 5e-324 s (a timer due at once, again and again) or 1e308 s.
    static func duration(_ name: String, _ field: WritableKeyPath<Settings, Double>, in range: ClosedRange<Double>,
                         zero: String? = nil) -> SettingKey {
        precondition(range.lowerBound > 0, "a duration's range begins above 0; 0 is `zero`")
        let allowed = (zero.map { "0 (\($0)) or " } ?? "") + formatRange(range) + " s"
        var key = SettingKey(name, field, decode: { value, key in
            guard let seconds = numberValue(value) else {
                return .failure(wrongType(key, "must be a number of seconds", value))
            }
            guard range.contains(seconds) || (zero != nil && seconds == 0) else {
                return .failure(Complaint(kind: .outOfRange, message:
                    "`\(key)` = \(formatNumber(seconds)) is out of range \(allowed)"))
            }
            return .success(seconds)
        }, encode: { "\($0)" }, samples: (zero == nil ? [] : ["0.0"]) + ["\(range.lowerBound)", "\(range.upperBound)"])
        key.isDuration = true
        return key
    }

    static func boolean(_ name: String, _ field: WritableKeyPath<Settings, Bool>) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            guard let boolean = value.bool else {
                return .failure(wrongType(key, "must be true or false", value))
            }
            return .success(boolean)
        }, encode: { "\($0)" }, samples: ["true", "false"])
    }

    static func choice<Choice: CaseIterable & RawRepresentable<String>>(
        _ name: String, _ field: WritableKeyPath<Settings, Choice>
    ) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            let expected = "must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))"
            guard let string = value.string else {
                return .failure(wrongType(key, expected, value, separator: ";"))
            }
            guard let choice = Choice(rawValue: string) else {
                return .failure(Complaint(kind: .notOneOf, message: "`\(key)` \(expected); got \(quotedExcerpt(string))"))
            }
            return .success(choice)
        }, encode: { quoted($0.rawValue) }, samples: Choice.allCases.map { quoted($0.rawValue) })
    }

    /// A string that must pass `isValid`, described by `expected` ("a path such as …"); `example`
    /// is another valid one than the default.
    /// `problem` says what else is wrong with a string that passes `isValid`, after "got …: ".
    static func text(_ name: String, _ field: WritableKeyPath<Settings, String>, expected: String, example: String,
                     isValid: @escaping (String) -> Bool, problem: @escaping (String) -> String? = { _ in nil }) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            guard let string = value.string else {
                return .failure(wrongType(key, "must be \(expected)", value))
            }
            guard isValid(string) else {
                return .failure(Complaint(kind: .badFormat, message:
                    "`\(key)` must be \(expected); got \(quotedExcerpt(string))"))
            }
            if let problem = problem(string) {
                return .failure(Complaint(kind: .badFormat, message:
                    "`\(key)` must be \(expected); got \(quotedExcerpt(string)): \(problem)"))
            }
            return .success(string)
        }, encode: { quoted($0) }, samples: [quoted(example)])
    }

    /// "auto" (nil) or a string that must pass `isValid`.
    /// `problem` says what else is wrong with a string that passes `isValid`, after "got …: ".
    static func autoText(_ name: String, _ field: WritableKeyPath<Settings, String?>, expected: String, example: String,
                         isValid: @escaping (String) -> Bool,
                         problem: @escaping (String) -> String? = { _ in nil }) -> SettingKey {
        optionalParsed(name, field, off: "auto", expected: expected, example: example, parse: { isValid($0) ? $0 : nil },
                       format: { $0 }, problem: problem)
    }

    /// "auto" (nil) or a string that `parse` turns into a value (nil: malformed); `format` writes
    /// the value back as that string.
    static func autoParsed<Value>(_ name: String, _ field: WritableKeyPath<Settings, Value?>, expected: String,
                                  example: String, parse: @escaping (String) -> Value?,
                                  format: @escaping (Value) -> String) -> SettingKey {
        optionalParsed(name, field, off: "auto", expected: expected, example: example, parse: parse, format: format)
    }

    /// `off` (nil: "auto", or "" for a feature that is off) or a string that `parse` turns into a
    /// value (nil: malformed); `format` writes the value back as that string.
    static func optionalParsed<Value>(_ name: String, _ field: WritableKeyPath<Settings, Value?>, off: String,
                                      expected: String, example: String, parse: @escaping (String) -> Value?,
                                      format: @escaping (Value) -> String,
                                      problem: @escaping (String) -> String? = { _ in nil }) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            let expected = "\(quoted(off)) or \(expected)"
            guard let string = value.string else {
                return .failure(wrongType(key, "must be \(expected)", value))
            }
            if string == off { return .success(nil) }
            guard let parsed = parse(string) else {
                return .failure(Complaint(kind: .badFormat, message:
                    "`\(key)` must be \(expected); got \(quotedExcerpt(string))"))
            }
            if let problem = problem(string) {
                return .failure(Complaint(kind: .badFormat, message: "`\(key)` = \(quotedExcerpt(string)) \(problem)"))
            }
            return .success(parsed)
        }, encode: { quoted($0.map(format) ?? off) }, samples: [quoted(off), quoted(example)])
    }

    /// "auto" (nil) or one of the integers 0, 90, 180, 270.
    static func rotation(_ name: String, _ field: WritableKeyPath<Settings, Settings.Rotation?>) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            let degrees = Settings.Rotation.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")
            let expected = "must be \"auto\" or one of \(degrees)"
            if let integer = value.int {
                guard let rotation = Settings.Rotation(rawValue: integer) else {
                    return .failure(Complaint(kind: .notOneOf, message: "`\(key)` \(expected); got \(integer)"))
                }
                return .success(rotation)
            }
            guard let string = value.string else {
                return .failure(wrongType(key, expected, value, separator: ";"))
            }
            guard string == "auto" else {
                return .failure(Complaint(kind: .notOneOf, message: "`\(key)` \(expected); got \(quotedExcerpt(string))"))
            }
            return .success(nil)
        }, encode: { rotation in rotation.map { "\($0.rawValue)" } ?? quoted("auto") },
        samples: [quoted("auto")] + Settings.Rotation.allCases.map { "\($0.rawValue)" })
    }

    /// "#RRGGBB".
    static func color(_ name: String, _ field: WritableKeyPath<Settings, UInt32>) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            let expected = "must be a colour \"#RRGGBB\""
            guard let string = value.string else {
                return .failure(wrongType(key, expected, value))
            }
            guard let color = HexColor.parse(string) else {
                return .failure(Complaint(kind: .badFormat, message: "`\(key)` \(expected); got \(quotedExcerpt(string))"))
            }
            return .success(color)
        }, encode: { quoted(HexColor.format($0)) }, samples: [quoted("#000000"), quoted("#FFFFFF")])
    }

    /// The touch calibration matrix `[a, b, c, d, e, f]` (libinput's, in coordinates normalised
    /// to 0...1), or left out (nil), which means `absentMeaning`. Six numbers, each within
    /// `calibrationElementRange`, whose linear part maps the panel onto an area (|a·e − b·d| at
    /// least `minimumCalibrationDeterminant`): 1e308 would put every touch off screen, a matrix of
    /// zeros every touch on one point.
    static func calibration(_ name: String, _ field: WritableKeyPath<Settings, [Double]?>,
                            absentMeaning: String) -> SettingKey {
        let count = 6
        return SettingKey(name, field, decode: { value, key in
            let expected = "must be an array of \(count) numbers"
            guard let array = value.array else {
                return .failure(wrongType(key, expected, value))
            }
            guard array.count == count else {
                return .failure(Complaint(kind: .wrongCount, message: "`\(key)` \(expected), got \(array.count)"))
            }
            var numbers: [Double] = []
            for (index, element) in array.enumerated() {
                guard let number = numberValue(element) else {
                    return .failure(Complaint(kind: .wrongType, message:
                        "`\(key)` \(expected); element \(index + 1) is \(describeValue(element))"))
                }
                guard calibrationElementRange.contains(number) else {
                    return .failure(Complaint(kind: .outOfRange, message:
                        "`\(key)` element \(index + 1) = \(formatNumber(number)) is out of range "
                        + "\(formatRange(calibrationElementRange)) (coordinates are normalised to 0...1)"))
                }
                numbers.append(number)
            }
            let determinant = numbers[0] * numbers[4] - numbers[1] * numbers[3]
            guard abs(determinant) >= minimumCalibrationDeterminant else {
                return .failure(Complaint(kind: .outOfRange, message:
                    "`\(key)` maps the whole panel onto a line or a point (a·e − b·d = \(formatNumber(determinant))); "
                    + "|a·e − b·d| must be at least \(formatNumber(minimumCalibrationDeterminant)), e.g. [1, 0, 0, 0, 1, 0] (identity)"))
            }
            return .success(numbers)
        }, encode: { numbers in numbers.map { "[\($0.map { "\($0)" }.joined(separator: ", "))]" } },
        absentMeaning: absentMeaning,
        samples: ["[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]", "[0.0, -1.0, 1.0, 1.0, 0.0, 0.0]"])
    }

    /// Each element of the calibration matrix: a panel's scale or offset in screen widths; a
    /// calibration of 10 screens is a mistake.
    static let calibrationElementRange = -10.0...10.0
    /// The panel mapped onto at least a tenth of the screen's width and height.
    static let minimumCalibrationDeterminant = 0.01
}

extension SettingKey {
    /// Rules are few; a list longer than a year of days is a mistake (or a hostile file).
    static let maximumListCount = 366

    /// An array of strings, each read by `parse` (the opening hours' rules); `expected` describes
    /// one element, `example` is one.
    static func list<Element>(_ name: String, _ field: WritableKeyPath<Settings, [Element]>, expected: String,
                              example: String,
                              parse: @escaping (String) -> Result<Element, OpeningHours.ParseFailure>,
                              format: @escaping (Element) -> String) -> SettingKey {
        SettingKey(name, field, decode: { value, key in
            let whole = "must be an array of strings, each \(expected)"
            guard let array = value.array else {
                return .failure(wrongType(key, whole, value))
            }
            guard array.count <= maximumListCount else {
                return .failure(Complaint(kind: .wrongCount, message:
                    "`\(key)` has \(array.count) elements; at most \(maximumListCount) are allowed"))
            }
            var elements: [Element] = []
            for (index, element) in array.enumerated() {
                guard let string = element.string else {
                    return .failure(Complaint(kind: .wrongType, message:
                        "`\(key)` \(whole); element \(index + 1) is \(describeValue(element))"))
                }
                switch parse(string) {
                case .success(let parsed):
                    elements.append(parsed)
                case .failure(let failure):
                    let suggestion = failure.unknownDay.flatMap {
                        Suggestion.closest(to: $0, among: Weekday.allCases.map(\.name))
                    }
                    return .failure(Complaint(kind: .badFormat, message:
                        "`\(key)` element \(index + 1) must be \(expected); got \(quotedExcerpt(string)): \(failure.reason)"
                        + (suggestion.map { "; did you mean `\($0)`?" } ?? "")))
                }
            }
            return .success(elements)
        }, encode: { elements in "[" + elements.map { quoted(format($0)) }.joined(separator: ", ") + "]" },
        samples: ["[]", "[\(quoted(example))]"])
    }
}

// MARK: - Helpers

func numberValue(_ value: TOMLValue) -> Double? {
    if let integer = value.int { return Double(integer) }
    return value.double
}

func wrongType(_ key: String, _ expected: String, _ value: TOMLValue,
               separator: String = ",") -> Complaint {
    Complaint(kind: .wrongType, message: "`\(key)` \(expected)\(separator) got \(typeName(value))")
}

func typeName(_ value: TOMLValue) -> String {
    switch value.type {
    case .table: return "table"
    case .array: return "array"
    case .string: return "string"
    case .int: return "integer"
    case .double: return "float"
    case .bool: return "boolean"
    case .date: return "date"
    case .time: return "time"
    case .dateTime: return "date-time"
    }
}

/// "a string", "an integer" … with the value for scalars, for messages about array elements.
func describeValue(_ value: TOMLValue) -> String {
    if let string = value.string { return "a string \(quotedExcerpt(string))" }
    if let number = numberValue(value) { return formatNumber(number) }
    let name = typeName(value)
    return (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
}

/// 5 rather than 5.0 in messages; everything else as Swift prints it.
func formatNumber(_ number: Double) -> String {
    if number.rounded() == number, abs(number) < 1e15 { return "\(Int(number))" }
    return "\(number)"
}

func formatRange(_ range: ClosedRange<Double>) -> String {
    "\(formatNumber(range.lowerBound))...\(formatNumber(range.upperBound))"
}

/// `string` quoted as a message shows a value read from the file: a bounded excerpt (SPEC §6).
func quotedExcerpt(_ string: String) -> String {
    quoted(Excerpt(string).description)
}

/// A TOML basic string, which is a JSON string too (the two agree on \", \\, \n, \t, \r and \uXXXX):
/// the trace writes its text with it.
public func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case "\r": result += "\\r"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
