// KeyError: the message of an error about one key's value, and the same error under another name.
#include "gpusched/support/key_error.h"

namespace gpusched {

namespace {

std::string message(const std::string& name, const std::string& value, const std::string& detail) {
    std::string subject = name;
    if (!value.empty()) subject += (subject.empty() ? "" : " ") + value;
    return subject.empty() ? detail : subject + ": " + detail;
}

}  // namespace

KeyError::KeyError(std::string key, std::string detail) : KeyError(std::move(key), std::string(), std::move(detail)) {}

KeyError::KeyError(std::string key, std::string value, std::string detail)
    : InputError(message(key, value, detail)),
      key_(std::move(key)),
      value_(std::move(value)),
      detail_(std::move(detail)) {}

KeyError KeyError::renamed(const std::string& name) const { return KeyError(name, value_, detail_); }

}  // namespace gpusched
