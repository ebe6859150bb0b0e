#pragma once
// A record's JSON keys, listed once next to its struct: `json_fields(const T*)` returns the list,
// results/base/JsonFields.hpp's write_fields / read_fields walk it both ways, and RecordDocTest pins
// docs/REPORT.md's table of the record to it. No nlohmann here: a list names members and codecs only.
//
//   constexpr auto json_fields(const PhaseBudget*) {
//     return fields(field("phase", &PhaseBudget::phase), field("longest", &PhaseBudget::longest).optional());
//   }
//
// What each entry says:
// - field(key, member): written always; read back required (a missing key is an error). A
//   std::optional member is written as null when unset and read back as unset when null or missing.
//   `member` may be a lambda returning a reference, for a key stored in a nested struct.
// - .optional(): may be missing when read (a file written before the key existed): the member keeps
//   its default.
// - .omitted_when_default(): written only when the value differs from a value-initialised one (an
//   empty list, an unset optional, an enum's first value); read back like .optional().
// - .as<Codec>(): converted by Codec's static write(json&, const M&) and read(const json&, M&)
//   (an enum as its name, a 64-bit hash as hex, NaN read back from null).
// - computed(key, write[, read]): a key derived from other members or a constant (write: const T& ->
//   value; read, when given: (const json&, T&); a missing key is an error unless .optional()).
#include <array>
#include <string_view>
#include <tuple>
#include <utility>

#include <nlohmann/json_fwd.hpp>

namespace gpuscale::results {

struct PlainJson {};  // the member's own nlohmann conversion

// JSON has no NaN: a NaN double is written as null, and null reads back as NaN.
struct NanAsNull {
  static void write(nlohmann::json& out, double value);
  static void read(const nlohmann::json& in, double& value);
};

enum FieldFlags : unsigned { kMayBeAbsent = 1, kOmitDefault = 2 };

template <class Get, class Codec = PlainJson, unsigned Flags = 0>
struct Field {
  static constexpr bool may_be_absent = (Flags & kMayBeAbsent) != 0;
  static constexpr bool omit_default = (Flags & kOmitDefault) != 0;
  std::string_view key;
  Get get;

  constexpr Field<Get, Codec, Flags | kMayBeAbsent> optional() const { return {key, get}; }
  constexpr Field<Get, Codec, Flags | kMayBeAbsent | kOmitDefault> omitted_when_default() const { return {key, get}; }
  template <class C>
  constexpr Field<Get, C, Flags> as() const {
    return {key, get};
  }
};

struct NoRead {};  // a computed key that is written only

template <class Write, class Read = NoRead, unsigned Flags = 0>
struct Computed {
  static constexpr bool may_be_absent = (Flags & kMayBeAbsent) != 0;
  std::string_view key;
  Write write;
  Read read{};

  constexpr Computed<Write, Read, Flags | kMayBeAbsent> optional() const { return {key, write, read}; }
};

template <class Get>
constexpr Field<Get> field(std::string_view key, Get get) {
  return {key, get};
}

template <class Write, class Read = NoRead>
constexpr Computed<Write, Read> computed(std::string_view key, Write write, Read read = {}) {
  return {key, write, read};
}

template <class... F>
struct Fields {
  std::tuple<F...> list;
};

template <class... F>
constexpr Fields<F...> fields(F... f) {
  return {std::tuple<F...>(f...)};
}

// A list whose every key may be missing when read.
template <class... F>
constexpr auto optional_fields(F... f) {
  return fields(f.optional()...);
}

// Every key of T's list, in list order (for the doc test and for readers that name keys).
template <class T>
constexpr auto field_keys() {
  return std::apply([](const auto&... f) { return std::array<std::string_view, sizeof...(f)>{f.key...}; },
                    json_fields(static_cast<const T*>(nullptr)).list);
}

}  // namespace gpuscale::results
