#pragma once
// JSON of records: write_fields / read_fields walk a record's field list (results/base/RecordFields.hpp)
// both ways; GPUSCALE_JSON_FROM_FIELDS defines a record's to_json / from_json through them. A missing
// measurement is written as null and read back as std::nullopt, so "not measured" never masquerades
// as zero.
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "results/base/RecordFields.hpp"

namespace gpuscale::results {

template <class T>
void get_optional(const nlohmann::json& j, const char* key, std::optional<T>& value) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    value.reset();
  } else {
    value = it->get<T>();
  }
}

// Reads key when present; leaves value untouched otherwise (fields added in later schema minors).
template <class T>
void get_if_present(const nlohmann::json& j, const char* key, T& value) {
  const auto it = j.find(key);
  if (it != j.end() && !it->is_null()) value = it->get<T>();
}

inline void NanAsNull::write(nlohmann::json& out, double value) {
  out = std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value);
}

inline void NanAsNull::read(const nlohmann::json& in, double& value) {
  value = in.is_null() ? std::nan("") : in.get<double>();
}

namespace fields_detail {

template <class M>
struct IsOptional : std::false_type {};
template <class M>
struct IsOptional<std::optional<M>> : std::true_type {};

// An unset optional, an empty list or string, a value-initialised scalar or enum.
template <class M>
bool is_default(const M& value) {
  if constexpr (IsOptional<M>::value) {
    return !value.has_value();
  } else if constexpr (requires { value.empty(); }) {
    return value.empty();
  } else {
    return value == M{};
  }
}

template <class Codec, class M>
void encode(nlohmann::json& out, const M& value) {
  if constexpr (IsOptional<M>::value) {
    if (value) {
      encode<Codec>(out, *value);
    } else {
      out = nullptr;
    }
  } else if constexpr (std::is_same_v<Codec, PlainJson>) {
    out = value;
  } else {
    Codec::write(out, value);
  }
}

template <class Codec, class M>
void decode(const nlohmann::json& in, M& value) {
  if constexpr (IsOptional<M>::value) {
    if (in.is_null()) {
      value.reset();
    } else {
      typename M::value_type inner{};
      decode<Codec>(in, inner);
      value = std::move(inner);
    }
  } else if constexpr (std::is_same_v<Codec, PlainJson>) {
    in.get_to(value);
  } else {
    Codec::read(in, value);
  }
}

template <class T, class Get, class Codec, unsigned Flags>
void write_one(nlohmann::json& j, const T& record, const Field<Get, Codec, Flags>& f) {
  const auto& value = std::invoke(f.get, record);
  if constexpr ((Flags & kOmitDefault) != 0) {
    if (is_default(value)) return;
  }
  encode<Codec>(j[std::string(f.key)], value);
}

template <class T, class Write, class Read, unsigned Flags>
void write_one(nlohmann::json& j, const T& record, const Computed<Write, Read, Flags>& f) {
  j[std::string(f.key)] = f.write(record);
}

template <class T, class Get, class Codec, unsigned Flags>
void read_one(const nlohmann::json& j, T& record, const Field<Get, Codec, Flags>& f) {
  auto& value = std::invoke(f.get, record);
  using M = std::remove_cvref_t<decltype(value)>;
  const std::string key(f.key);
  const auto it = j.find(key);
  if constexpr (IsOptional<M>::value) {
    if (it == j.end()) {
      value.reset();
      return;
    }
  } else {
    if (f.may_be_absent && (it == j.end() || it->is_null())) return;
    if (it == j.end()) j.at(key);  // throws nlohmann's "key not found" (or "cannot use at()" on a non-object)
  }
  decode<Codec>(*it, value);
}

template <class T, class Write, class Read, unsigned Flags>
void read_one(const nlohmann::json& j, T& record, const Computed<Write, Read, Flags>& f) {
  if constexpr (!std::is_same_v<Read, NoRead>) {
    const std::string key(f.key);
    if (const auto it = j.find(key); it != j.end()) {
      f.read(*it, record);
    } else if (!f.may_be_absent) {
      j.at(key);  // throws nlohmann's "key not found"
    }
  }
}

}  // namespace fields_detail

template <class T>
void write_fields(nlohmann::json& j, const T& record) {
  j = nlohmann::json::object();
  std::apply([&](const auto&... f) { (fields_detail::write_one(j, record, f), ...); }, json_fields(&record).list);
}

template <class T>
void read_fields(const nlohmann::json& j, T& record) {
  if (!j.is_object()) throw nlohmann::json::type_error::create(302, "a record must be a JSON object", &j);
  std::apply([&](const auto&... f) { (fields_detail::read_one(j, record, f), ...); },
             json_fields(static_cast<const T*>(&record)).list);
}

}  // namespace gpuscale::results

// Defines to_json / from_json of Record (declared in its header) through its field list.
#define GPUSCALE_JSON_FROM_FIELDS(Record)                                                     \
  void to_json(nlohmann::json& j, const Record& v) { ::gpuscale::results::write_fields(j, v); } \
  void from_json(const nlohmann::json& j, Record& v) { ::gpuscale::results::read_fields(j, v); }
