import UniformTypeIdentifiers

/// Which types an item can serve and how: its stored types, then every type reachable from
/// them through converters, each once, in the order of the stored type it derives from.
///
/// Reachability is found breadth-first from each stored type in turn, converters in
/// registration order (built-ins first), so a type is reached by the shortest chain from the
/// earliest stored type that leads to it.
struct ConversionPlan: Sendable {
  /// The longest chain of conversions considered.
  static let maximumSteps = 3

  /// One conversion in a chain.
  struct Step: Sendable {
    var converter: any PasteboardConverter
    var source: UTType
    var target: UTType
  }

  /// How to serve one type: a stored representation, then conversion steps.
  struct Route: Sendable {
    var storedIndex: Int
    var steps: [Step]
  }

  /// Every type the item serves, stored first.
  private(set) var types: [UTType] = []
  /// The route of each type in ``types``, by identifier key.
  private var routes: [UTType: Route] = [:]

  init(stored: [UTType], converters: [any PasteboardConverter]) {
    for (index, type) in stored.enumerated() where routes[type] == nil {
      routes[type] = Route(storedIndex: index, steps: [])
      types.append(type)
    }
    for (index, type) in stored.enumerated() where routes[type]?.storedIndex == index {
      var frontier: [(UTType, [Step])] = [(type, [])]
      for _ in 0..<Self.maximumSteps where !frontier.isEmpty {
        var next: [(UTType, [Step])] = []
        for (source, steps) in frontier {
          for converter in converters {
            for output in converter.outputs(from: source) where routes[output] == nil {
              let chain = steps + [Step(converter: converter, source: source, target: output)]
              routes[output] = Route(storedIndex: index, steps: chain)
              types.append(output)
              next.append((output, chain))
            }
          }
        }
        frontier = next
      }
    }
  }

  /// The route serving `type`, in this order: a stored representation of exactly that type;
  /// the first stored one that conforms to it; a conversion to exactly that type; the first
  /// conversion to a type that conforms to it.
  func route(for type: UTType) -> (UTType, Route)? {
    let stored = types.prefix { routes[$0]!.steps.isEmpty }
    let converted = types.dropFirst(stored.count)
    if let route = routes[type], route.steps.isEmpty { return (type, route) }
    if let match = stored.first(where: { $0.conforms(to: type) }) { return (match, routes[match]!) }
    if let route = routes[type] { return (type, route) }
    if let match = converted.first(where: { $0.conforms(to: type) }) {
      return (match, routes[match]!)
    }
    return nil
  }
}
