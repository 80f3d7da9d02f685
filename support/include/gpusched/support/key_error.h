// KeyError: an InputError about one input value, named by the library's key so that each caller can name it its own way.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "gpusched/support/input_error.h"

namespace gpusched {

/// An InputError about the value of one input that a library knows by `key` ("threads",
/// "policy", "exec", "gpu"), optionally quoting the value: what() reads "KEY[ VALUE]: DETAIL".
/// Libraries speak of keys and values; a caller that knows the input by another name (the
/// command line's flag, a study file's parameter) renames the key (renamed(), naming_keys()).
///
///     throw KeyError("threads", "expected at least 1 thread per block, got 0");
///     throw KeyError("policy", "walk", "GPU 'a100' has no topology.dispatch_walk");
///     // on the command line: "--threads: expected ...", "--policy walk: GPU 'a100' ..."
class KeyError : public InputError {
public:
    KeyError(std::string key, std::string detail);
    KeyError(std::string key, std::string value, std::string detail);

    [[nodiscard]] const std::string& key() const { return key_; }
    [[nodiscard]] const std::string& value() const { return value_; }
    [[nodiscard]] const std::string& detail() const { return detail_; }

    /// The same error with `name` in place of the key: "NAME[ VALUE]: DETAIL" (just DETAIL, or
    /// "VALUE: DETAIL", when `name` is empty).
    [[nodiscard]] KeyError renamed(const std::string& name) const;

private:
    std::string key_;
    std::string value_;
    std::string detail_;
};

/// The caller's name for each library key it passes, e.g. {{"policy", "--policy"}}.
using KeyNames = std::map<std::string, std::string>;

/// Runs `body`; a KeyError it throws about a key in `names` is rethrown under that name, and
/// every other exception passes unchanged.
template <class Body>
decltype(auto) naming_keys(const KeyNames& names, Body&& body) {
    try {
        return std::forward<Body>(body)();
    } catch (const KeyError& e) {
        const auto it = names.find(e.key());
        if (it == names.end()) throw;
        throw e.renamed(it->second);
    }
}

}  // namespace gpusched
