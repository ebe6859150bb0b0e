// The judge's marks kept beside the records: looked up by kind and record, and written into the JSON
// of the record they mark (a flag, a value, an entry of a record) and taken back out of it.
#include "results/base/RecordMarks.hpp"

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "results/base/MarkJson.hpp"

namespace gpuscale::results {
namespace {

enum class AMark { slow, floor, beside_tenant, straggler, pair_slow };
constexpr std::string_view phase_of(AMark) { return "a"; }
enum class BMark { slow };
constexpr std::string_view phase_of(BMark) { return "b"; }

constexpr MarkKey kKeys[] = {
    flag_mark(AMark::slow, "slow", Unmarked::written),
    value_mark(AMark::floor, "floor"),
    flag_mark(AMark::beside_tenant, "beside_tenant", Unmarked::omitted),
};
// A phase whose JSON is an object of lists: a nested list, and an entry of each record.
constexpr MarkKey kNestedKeys[] = {
    flag_mark(AMark::pair_slow, "slow", Unmarked::written, "pairs/pairs"),
    flag_mark(AMark::straggler, "straggler", Unmarked::written, "records", "ranks"),
};

TEST(RecordMarks, AreLookedUpByKindRecordAndEntry) {
  RecordMarks marks;
  marks.add(record_mark(AMark::slow, 2));
  marks.add(record_mark(AMark::floor, 1, 0, 554.1));
  marks.add(record_mark(AMark::straggler, 0, 3));
  EXPECT_TRUE(marks.has(AMark::slow, 2));
  EXPECT_FALSE(marks.has(AMark::slow, 1));
  EXPECT_FALSE(marks.has(BMark::slow, 2)) << "the same number, another phase";
  EXPECT_TRUE(marks.has(AMark::straggler, 0, 3));
  EXPECT_FALSE(marks.has(AMark::straggler, 0, 0));
  EXPECT_EQ(marks.value(AMark::floor, 1), 554.1);
  EXPECT_FALSE(marks.value(AMark::floor, 2));
  marks.add(record_mark(AMark::floor, 1, 0, 600));
  EXPECT_EQ(marks.value(AMark::floor, 1), 600) << "a floor set anew replaces the first";
  EXPECT_EQ(marks.size(), 3u);
}

TEST(MarkJson, EachMarkIsWrittenInItsRecordAndReadBack) {
  nlohmann::json list = nlohmann::json::array({{{"rank", 0}}, {{"rank", 1}}, {{"rank", 2}}});
  RecordMarks marks(std::vector{record_mark(AMark::slow, 1), record_mark(AMark::floor, 0, 0, 554.1),
                                record_mark(AMark::beside_tenant, 2), record_mark(BMark::slow, 0)});
  write_marks(list, kKeys, marks);
  EXPECT_EQ(list[0], (nlohmann::json{{"rank", 0}, {"slow", false}, {"floor", 554.1}}));
  EXPECT_EQ(list[1], (nlohmann::json{{"rank", 1}, {"slow", true}, {"floor", nullptr}}));
  EXPECT_EQ(list[2], (nlohmann::json{{"rank", 2}, {"slow", false}, {"floor", nullptr}, {"beside_tenant", true}}));
  RecordMarks back;
  read_marks(list, kKeys, back);
  EXPECT_TRUE(back.has(AMark::slow, 1));
  EXPECT_TRUE(back.has(AMark::beside_tenant, 2));
  EXPECT_EQ(back.value(AMark::floor, 0), 554.1);
  EXPECT_EQ(back.size(), 3u) << "B's mark has no key among A's: never written";
  nlohmann::json one = {{"rank", 1}};
  write_record_marks(one, 1, kKeys, marks);
  EXPECT_EQ(one, list[1]) << "a record written alone reads as in its list";
}

TEST(MarkJson, MarksInNestedListsAndEntries) {
  nlohmann::json phase = {{"pairs", {{"pairs", {{{"a", 0}}, {{"a", 1}}}}}},
                          {"records", {{{"ranks", {{{"rank", 0}}, {{"rank", 1}}}}}}}};
  const RecordMarks marks(std::vector{record_mark(AMark::pair_slow, 1), record_mark(AMark::straggler, 0, 1)});
  write_marks(phase, kNestedKeys, marks);
  EXPECT_EQ(phase["pairs"]["pairs"][0]["slow"], false);
  EXPECT_EQ(phase["pairs"]["pairs"][1]["slow"], true);
  EXPECT_EQ(phase["records"][0]["ranks"][0]["straggler"], false);
  EXPECT_EQ(phase["records"][0]["ranks"][1]["straggler"], true);
  RecordMarks back;
  read_marks(phase, kNestedKeys, back);
  EXPECT_EQ(back.all().size(), 2u);
  EXPECT_TRUE(back.has(AMark::pair_slow, 1));
  EXPECT_TRUE(back.has(AMark::straggler, 0, 1));
  nlohmann::json absent;  // a phase that did not run: nothing is written
  write_marks(absent, kNestedKeys, marks);
  EXPECT_TRUE(absent.is_null());
}

TEST(MarkJson, AMarkOfTheWrongTypeIsRefused) {
  RecordMarks back;
  EXPECT_THROW(read_record_marks({{"slow", "yes"}}, 0, kKeys, back), std::invalid_argument);
  EXPECT_THROW(read_record_marks({{"floor", true}}, 0, kKeys, back), std::invalid_argument);
  read_record_marks({{"slow", false}, {"floor", nullptr}}, 0, kKeys, back);
  EXPECT_TRUE(back.empty());
}

}  // namespace
}  // namespace gpuscale::results
