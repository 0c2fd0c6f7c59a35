#pragma once
// The exception hierarchy shared by every Volley library (docs/architecture.md, "Errors").
// Each error's message names the file or object, and the bad value; the typed fields carry
// the same facts for programs.

#include <stdexcept>
#include <string>

namespace volley {

/// Base of every exception Volley throws on bad input or failed I/O.
class error : public std::runtime_error {
public:
    explicit error(const std::string& message) : std::runtime_error(message) {}
};

/// A parameter is out of its valid range, non-finite, or inconsistent with another one.
class invalid_parameter : public error {
public:
    /// @param object  what the parameter belongs to, e.g. "population 'exc'"
    /// @param parameter the parameter's name, e.g. "tau_m_ms"
    /// @param value   the offending value, as text
    /// @param reason  what is wrong, e.g. "must be > 0"
    invalid_parameter(std::string object, std::string parameter, std::string value,
                      const std::string& reason)
        : error(object + ": " + parameter + " = " + value + ": " + reason),
          object_(std::move(object)), parameter_(std::move(parameter)), value_(std::move(value)) {}

    const std::string& object() const noexcept { return object_; }
    const std::string& parameter() const noexcept { return parameter_; }
    const std::string& value() const noexcept { return value_; }

private:
    std::string object_, parameter_, value_;
};

/// A file is malformed: bad syntax, a wrong type, or a missing or unknown key.
class file_format_error : public error {
public:
    /// @param file     the file's path ("<string>" when parsed from memory)
    /// @param location where in the file, e.g. a JSON pointer "/projections/2/weight"
    /// @param reason   what is wrong, naming the bad value
    file_format_error(std::string file, std::string location, const std::string& reason)
        : error(file + ": " + (location.empty() ? std::string() : location + ": ") + reason),
          file_(std::move(file)), location_(std::move(location)) {}

    const std::string& file() const noexcept { return file_; }
    const std::string& location() const noexcept { return location_; }

private:
    std::string file_, location_;
};

/// A file could not be opened, read or written.
class io_error : public error {
public:
    io_error(std::string file, const std::string& reason)
        : error(file + ": " + reason), file_(std::move(file)) {}
    const std::string& file() const noexcept { return file_; }

private:
    std::string file_;
};

/// A reference to something that does not exist: a population, a node, a state variable.
class unknown_name : public error {
public:
    /// @param known the valid names, e.g. "tau_m_ms, v_rest_mv" ("" when not listed)
    unknown_name(std::string kind, std::string name, const std::string& context, const std::string& known = "")
        : error(context + ": unknown " + kind + " '" + name + "'" + (known.empty() ? "" : " (known: " + known + ")")),
          kind_(std::move(kind)), name_(std::move(name)) {}
    const std::string& kind() const noexcept { return kind_; }
    const std::string& name() const noexcept { return name_; }

private:
    std::string kind_, name_;
};

/// A neuron model is unknown, or is not supported by the chosen backend.
class unsupported_model : public error {
public:
    unsupported_model(std::string model, const std::string& reason)
        : error("model '" + model + "': " + reason), model_(std::move(model)) {}
    const std::string& model() const noexcept { return model_; }

private:
    std::string model_;
};

/// A network cannot be placed and routed onto a hardware array.
class unroutable_network : public error {
public:
    unroutable_network(std::string object, const std::string& reason)
        : error(object + ": " + reason), object_(std::move(object)) {}
    const std::string& object() const noexcept { return object_; }

private:
    std::string object_;
};

/// A bug inside Volley (a broken invariant), never caused by user input.
class internal_error : public error {
public:
    explicit internal_error(const std::string& message) : error("internal error: " + message) {}
};

}  // namespace volley

/// VOLLEY_ASSERT(cond): checked when built with VOLLEY_WITH_ASSERTIONS, throws internal_error.
#if defined(VOLLEY_ASSERTIONS_ENABLED)
#define VOLLEY_ASSERT(cond)                                                                  \
    do {                                                                                     \
        if (!(cond))                                                                         \
            throw ::volley::internal_error(std::string(__FILE__) + ":" +                     \
                                           std::to_string(__LINE__) + ": " #cond " failed"); \
    } while (0)
#else
#define VOLLEY_ASSERT(cond) ((void)0)
#endif
