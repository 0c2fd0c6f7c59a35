// The danna2.net text format: a round trip, and malformed lines rejected with their line
// number; plus TENNLab JSON in and out of the danna2 property pack.

#include <volley/danna/danna2_net_format.hpp>
#include <volley/danna/danna2_params.hpp>
#include <volley/error.hpp>

#include <gtest/gtest.h>

#include <sstream>

using namespace volley::danna;

namespace {

const char* const example =
    "w 4 h 3 l 0 s 0\n"
    "N 0 0 5 1\n"
    "N 2 1 700 3\n"
    "S 0 0 -1023 7\n"
    "S 2 1 12 1\n"
    "N 3 2 0 0\n"
    "S 2 1 1023 256\n"
    "I 0 0 0\n"
    "O 0 3 2\n"
    "O 1 2 1\n";

danna2_net parse(const std::string& text) {
    std::istringstream in(text);
    return read_danna2_net(in, "test.net");
}

/// The line number named by a format error for `text`, or -1.
std::string error_location(const std::string& text) {
    try {
        parse(text);
    } catch (const volley::file_format_error& e) {
        return e.location();
    }
    return "accepted";
}

}  // namespace

TEST(danna2_net, reads_neurons_synapses_and_io_as_written) {
    const danna2_net f = parse(example);
    EXPECT_EQ(f.width, 4);
    EXPECT_EQ(f.height, 3);
    ASSERT_EQ(f.net.neurons.size(), 3u);
    EXPECT_EQ(f.net.neurons[1].threshold, 700);
    EXPECT_EQ(f.net.neurons[1].refractory, 3);
    EXPECT_EQ(*f.net.neurons[1].position, (cell{2, 1}));
    ASSERT_EQ(f.net.synapses.size(), 3u);
    // "S 0 0 -1023 7" under neuron 1 (at 2 1): from neuron 0 (at 0 0) to 1.
    EXPECT_EQ(f.net.synapses[0].from, 0u);
    EXPECT_EQ(f.net.synapses[0].to, 1u);
    EXPECT_EQ(f.net.synapses[0].weight, -1023);
    EXPECT_EQ(f.net.synapses[0].delay, 7);
    EXPECT_EQ(f.net.synapses[1].from, 1u);  // self-loop
    EXPECT_EQ(f.net.synapses[1].to, 1u);
    EXPECT_EQ(f.net.synapses[2].to, 2u);
    EXPECT_EQ(f.net.inputs, (std::vector<node_id>{0}));
    EXPECT_EQ(f.net.outputs, (std::vector<node_id>{2, 1}));
}

TEST(danna2_net, round_trips_byte_for_byte) {
    const danna2_net f = parse(example);
    std::ostringstream out;
    write_danna2_net(out, f);
    EXPECT_EQ(out.str(), example);
    const danna2_net again = parse(out.str());
    std::ostringstream out2;
    write_danna2_net(out2, again);
    EXPECT_EQ(out2.str(), out.str());
}

TEST(danna2_net, malformed_lines_are_rejected_with_their_line_number) {
    const std::string header = "w 4 h 3 l 0 s 0\n";
    EXPECT_EQ(error_location("w 4 h 3 l 0\n"), "line 1");
    EXPECT_EQ(error_location("N 0 0 1 1\n"), "line 1");                      // no header
    EXPECT_EQ(error_location(header + "N 0 0 1\n"), "line 2");               // too few numbers
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nN 0 x 1 1\n"), "line 3");  // not a number
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nN 9 0 1 1\n"), "line 3");  // outside array
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nN 0 0 2 1\n"), "line 3");  // same cell
    EXPECT_EQ(error_location(header + "S 0 0 1 1\n"), "line 2");  // synapse before a neuron
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nS 0 0 1 0\n"), "line 3");             // delay 0
    EXPECT_EQ(error_location(header + "N 0 0 1 1\n\n# c\nS 1 1 1 1\n"), "line 5");      // no pre
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nS 0 0 1 1\nS 0 0 2 1\n"), "line 4");  // dup
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nX 1\n"), "line 3");      // unknown tag
    EXPECT_EQ(error_location(header + "N 0 0 1 1\nI 0 1 1\n"), "line 3");  // no neuron there
    EXPECT_EQ(error_location(header + "N 0 0 1 1 7\n"), "line 2");         // too many numbers
    EXPECT_EQ(error_location(header + "N 0 0 1 1\n"), "accepted");
}

TEST(danna2_net, message_names_the_file_and_line) {
    try {
        parse("w 4 h 3 l 0 s 0\nN 0 0 1 1\nS 0 0 1 zero\n");
        FAIL();
    } catch (const volley::file_format_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind("test.net: line 3: ", 0), 0u) << e.what();
    }
}

TEST(danna2_net, tennlab_json_round_trip_keeps_values_and_positions) {
    const danna2_net f = parse(example);
    const danna2_params p;
    const auto json =
        to_tennlab(f.net, p.network_properties(),
                   {{"other", {{"proc_name", "danna2"}}}, {"proc_params", p.to_json()}});
    const auto text = json.to_json();
    const auto back = from_tennlab(volley::hw::tennlab_network::from_json(text, "<test>"), 1);
    ASSERT_EQ(back.neurons.size(), f.net.neurons.size());
    for (std::size_t i = 0; i < back.neurons.size(); ++i) {
        EXPECT_EQ(back.neurons[i].threshold, f.net.neurons[i].threshold);
        EXPECT_EQ(back.neurons[i].refractory, f.net.neurons[i].refractory);
        EXPECT_EQ(back.neurons[i].position, f.net.neurons[i].position);
    }
    ASSERT_EQ(back.synapses.size(), f.net.synapses.size());
    for (std::size_t i = 0; i < back.synapses.size(); ++i) {
        EXPECT_EQ(back.synapses[i].weight, f.net.synapses[i].weight);
        EXPECT_EQ(back.synapses[i].delay, f.net.synapses[i].delay);
    }
    std::ostringstream a, b;
    write_danna2_net(a, f);
    write_danna2_net(b, danna2_net{4, 3, 0, 0, back});
    EXPECT_EQ(a.str(), b.str());
}
