/// A setting whatever its value type: what the docs, the file reader and the merge need.
public protocol AnySetting: Sendable {
    var name: String { get }
    var shortName: Character? { get }
    var group: SettingGroup { get }
    var summary: String { get }
    var details: String? { get }
    var valueName: String { get }
    var allowed: String { get }
    var choices: [String]? { get }
    var defaultDescription: String? { get }
    var inConfigFile: Bool { get }
    /// Whether the option is a flag: on when given, no value.
    var isFlag: Bool { get }
    /// For shell completion: the extensions of the files it names ([] for any file), nil when not a file name.
    var fileExtensions: [String]? { get }
    /// Whether the command line takes `text` as this option's value.
    func isValidArgument(_ text: String) -> Bool
    /// Sets this setting in `values` from a command-line argument, or says what it must be.
    func apply(argument text: String, to values: inout SettingValues) -> SettingError?
    /// Sets this setting in `values` from a file value, or says what is wrong with it.
    func apply(_ value: ConfigValue, to values: inout SettingValues) -> SettingError?
}

extension Setting: AnySetting {
    public var valueName: String { domain.valueName }
    public var allowed: String { domain.allowed }
    public var choices: [String]? { domain.choices }
    public var isFlag: Bool { domain.valueName.isEmpty }
    public var fileExtensions: [String]? { domain.fileExtensions }

    public func isValidArgument(_ text: String) -> Bool { domain.fromText(text) != nil }

    public func apply(argument text: String, to values: inout SettingValues) -> SettingError? {
        store(parseArgument(text), in: &values)
    }

    public func apply(_ value: ConfigValue, to values: inout SettingValues) -> SettingError? {
        store(parseFileValue(value), in: &values)
    }

    /// Sets this setting in `values` to what a source parsed; the error instead, when it could not be parsed.
    private func store(_ parsed: Result<Value, SettingError>, in values: inout SettingValues) -> SettingError? {
        switch parsed {
        case .success(let value):
            values[self] = value
            return nil
        case .failure(let error):
            return error
        }
    }
}

/// The values some source (the command line, the file) sets; a setting it does not set is absent.
public struct SettingValues: Sendable, Equatable {
    private var storage: [String: AnyHashableSendable] = [:]

    public init() {}

    /// The value set for `setting`, or nil.
    public subscript<Value>(setting: Setting<Value>) -> Value? {
        get { storage[setting.name]?.value as? Value }
        set { storage[setting.name] = newValue.map(AnyHashableSendable.init) }
    }

    /// The value set for `setting`, else its default; only for settings that declare a default.
    public func value<Value>(_ setting: Setting<Value>) -> Value {
        guard let value = self[setting] ?? setting.defaultValue else {
            preconditionFailure("\(setting.name) has no default: read it with settings[…]")
        }
        return value
    }

    /// The one rule for sources: every value `overrides` sets wins (the command line over the file).
    public func overridden(by overrides: SettingValues) -> SettingValues {
        var merged = self
        merged.storage.merge(overrides.storage) { _, winner in winner }
        return merged
    }

    /// The names of the settings that are set.
    public var names: Set<String> { Set(storage.keys) }
}

/// A hashable, sendable value whose type is known only to the setting that stored it.
struct AnyHashableSendable: Hashable, @unchecked Sendable {
    // Sendable: only `Setting<Value>` stores values here, and it requires `Value: Sendable`.
    let value: AnyHashable
    init<Value: Hashable & Sendable>(_ value: Value) { self.value = AnyHashable(value) }
}

/// Values a setting of a type takes from the command line: a flag given, an option's value.
extension SettingValues {
    /// Sets `setting` when `value` is not nil.
    public mutating func set<Value>(_ setting: Setting<Value>, _ value: Value?) {
        if let value { self[setting] = value }
    }
}
