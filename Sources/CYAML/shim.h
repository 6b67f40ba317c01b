// libyaml (Debian's libyaml-dev), whose parser FerryConfiguration reads its file with: the
// same YAML 1.1 parser Yams wraps, without Yams's Foundation (docs/PERFORMANCE.md, "Size").
#include <yaml.h>
