import FerrySystem
import FoundationEssentials
import UniformTypeIdentifiers

/// One thing copied: an ordered list of representations, richest first.
///
/// A reader gets the first representation that serves the type it asks for — the stored one
/// of exactly that type, else one that conforms to it, else a conversion — so order is
/// preference. Representations are produced on request, at most once per type, and kept;
/// conversions are kept too — a large one in a file of the item's spool, removed with the
/// item, not in memory.
///
/// ```swift
/// let item = PasteboardItem(representations: [
///   .data(profileJSON, type: .profile),
///   .data(Data("Juan Chavez".utf8), type: .utf8PlainText),
/// ])
/// item.types          // [com.example.profile, public.utf8-plain-text, org.x.string, …]
/// try await item.data(for: .plainText)   // "Juan Chavez"
/// ```
///
/// Items are immutable once made and safe to read from many tasks at once.
public final class PasteboardItem: Sendable {
  /// The stored representations, in preference order.
  public let representations: [PasteboardRepresentation]
  /// How the item may be kept and shown.
  public let options: Options
  /// When the item stops being served, if ever.
  public let expirationDate: Date?
  /// The converters the item plans with.
  public let converters: ConverterRegistry
  /// The names the program it was copied from offered each stored type under, in its order
  /// (`text/plain;charset=UTF-8`, which Ferry's own name for the type spells differently): a
  /// display server serving the copy answers to each, spelled as that program spelled it.
  /// Empty for an item made here.
  public let ownerNames: [UTType: [String]]

  private let plan = TrackedMutex<(generation: Int, plan: ConversionPlan)?>(nil)
  private let produced = TrackedMutex<[UTType: Task<PasteboardPayload, any Error>]>([:])
  /// The text in GTK's lenient forms, made once each (see `PasteboardItem+EscapedText.swift`).
  let escaped = TrackedMutex<[EscapedTextForm: Task<PasteboardPayload, any Error>]>([:])
  /// Where conversions too large for memory go; none for a concealed item, which never
  /// touches the disk.
  let spool: Spool?
  /// What each lazy representation's provider produced, by stored type, once it succeeded:
  /// the bytes at hand (``itemAtHand()``).
  let fetched = TrackedMutex<[UTType: PasteboardPayload]>([:])

  /// Makes an item.
  ///
  /// - Parameters:
  ///   - representations: The representations, richest first. A second representation of a
  ///     type already listed is ignored.
  ///   - options: How the item may be kept and shown.
  ///   - expirationDate: When the item stops being served.
  ///   - converters: The converters that serve types nobody stored.
  ///   - ownerNames: The names the program it was copied from offered each type under
  ///     (``ownerNames``).
  public init(
    representations: [PasteboardRepresentation], options: Options = [],
    expirationDate: Date? = nil, converters: ConverterRegistry = .shared,
    ownerNames: [UTType: [String]] = [:]
  ) {
    self.ownerNames = ownerNames
    var seen = Set<UTType>()
    self.representations = representations.filter { seen.insert($0.type).inserted }
    self.options = options.union(Options(markedBy: self.representations))
    self.expirationDate = expirationDate
    self.converters = converters
    spool = self.options.contains(.concealed) ? nil : Spool(parent: converters.spoolParent)
  }

  /// Whether the expiration date has passed.
  public var isExpired: Bool {
    expirationDate.map { $0 <= Date() } ?? false
  }

  /// The types of the stored representations, in order.
  public var storedTypes: [UTType] { representations.map(\.type) }

  /// Every type the item serves: the stored types in order, then each type reachable from
  /// them by conversion, once, in the order of the stored type it derives from.
  public var types: [UTType] { currentPlan().types }

  /// The type that would serve a request for `type` — `type` itself, or a type that conforms
  /// to it — or `nil` when the item cannot serve it.
  public func availableType(conformingTo type: UTType) -> UTType? {
    currentPlan().route(for: type)?.0
  }

  /// The bytes for `type`, produced, converted or read as needed.
  ///
  /// - Throws: ``PasteboardError`` naming the type when it is not available or its provider
  ///   or a conversion fails.
  public func data(for type: UTType) async throws -> Data {
    let payload = try await payload(for: type)
    do {
      return try payload.data()
    } catch {
      throw PasteboardError.io("reading \(type.identifier): \(error.plainDescription)")
    }
  }

  /// The payload for `type`, which may be a file: use this for large representations.
  ///
  /// - Throws: ``PasteboardError`` naming the type.
  public func payload(for type: UTType) async throws -> PasteboardPayload {
    guard let (served, route) = currentPlan().route(for: type) else {
      throw PasteboardError.typeNotAvailable(type, offered: types)
    }
    return try await produce(served, route: route)
  }

  /// The payload of the stored representation of exactly `type` when it is at hand — bytes
  /// or a file, not a provider to run: what ``payload(for:)`` returns for `type`, without
  /// awaiting anything. `nil` for a lazy representation, a conversion, or a type not stored.
  ///
  /// For a caller on a thread of its own (the X thread) that answers many small requests: a
  /// task per request only to reach bytes already in hand costs more than the answer.
  package func storedPayload(for type: UTType) -> PasteboardPayload? {
    guard let representation = representations.first(where: { $0.type == type }),
      case .payload(let payload) = representation.provider
    else { return nil }
    return payload
  }

  private func currentPlan() -> ConversionPlan {
    let (generation, converters) = converters.snapshot
    if let cached = plan.withLock({ $0 }), cached.generation == generation { return cached.plan }
    let fresh = ConversionPlan(stored: storedTypes, converters: converters)
    plan.withLock { $0 = (generation, fresh) }
    return fresh
  }

  /// Runs the provider of `type`'s route once, sharing the run among concurrent requests.
  private func produce(_ type: UTType, route: ConversionPlan.Route) async throws
    -> PasteboardPayload
  {
    let representation = representations[route.storedIndex]
    let (task, timeLimit) = produced.withLock {
      tasks -> (Task<PasteboardPayload, any Error>, Duration?) in
      let limit: Duration? =
        route.steps.isEmpty
        ? {
          if case .lazy(let limit, _) = representation.provider { return limit } else { return nil }
        }()
        : nil
      if let running = tasks[type] { return (running, limit) }
      // On the production threads whatever the caller prefers: a provider or a conversion
      // may take long, and must not hold up a caller's own executor (the broker's event
      // loop); nor may anything else that holds the global pool hold up an owner's answer
      // (ProductionExecutor).
      let task = Task(executorPreference: ProductionExecutor.shared) { [self] in
        try await self.run(route, representation: representation)
      }
      tasks[type] = task
      return (task, limit)
    }
    do {
      if let timeLimit {
        return try await TimeLimit.value(of: task, within: timeLimit) {
          PasteboardError.providerTimedOut(type, seconds: Double(timeLimit.components.seconds))
        }
      }
      return try await task.value
    } catch {
      produced.withLock { tasks in
        if tasks[type] == task { tasks[type] = nil }
      }
      task.cancel()
      throw error
    }
  }

  /// Produces the stored representation of a route (through its cache entry), then converts.
  private func run(_ route: ConversionPlan.Route, representation: PasteboardRepresentation)
    async throws -> PasteboardPayload
  {
    var payload: PasteboardPayload
    if route.steps.isEmpty {
      switch representation.provider {
      case .payload(let stored): return stored
      case .lazy(_, let make):
        do {
          let payload = try await make(spool.map(ConversionSpool.init(spool:)))
          fetched.withLock { $0[representation.type] = payload }
          return payload
        } catch let error as PasteboardError {
          throw error
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          throw PasteboardError.providerFailed(representation.type, reason: "\(error)")
        }
      }
    }
    payload = try await produce(
      representation.type, route: ConversionPlan.Route(storedIndex: route.storedIndex, steps: []))
    for step in route.steps {
      do {
        if let spool {
          payload = try await step.converter.convert(
            payload, from: step.source, to: step.target, spool: ConversionSpool(spool: spool))
        } else {
          payload = try await step.converter.convert(payload, from: step.source, to: step.target)
        }
      } catch let error as PasteboardError {
        throw error
      } catch {
        throw PasteboardError.conversionFailed(
          from: step.source, to: step.target, reason: "\(error)")
      }
    }
    return payload
  }
}
