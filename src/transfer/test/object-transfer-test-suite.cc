/*
 * ObjectTransferSender / ObjectTransferReceiver: several objects over one TCP connection
 * (and over SCTP with one stream per object), every object completed, its completion
 * time recorded, and the simulation stopped once all have arrived.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/object-transfer-receiver.h"
#include "ns3/object-transfer-record.h"
#include "ns3/object-transfer-sender.h"
#include "ns3/test.h"

using namespace ns3;

class ObjectTransferTestCase : public TestCase
{
  public:
    ObjectTransferTestCase(std::string factory)
        : TestCase("4 objects of 20 kB over " + factory),
          m_factory(factory)
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        SimpleNetDeviceHelper link;
        link.SetChannelAttribute("Delay", TimeValue(MilliSeconds(10)));
        link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("5Mbps")));
        NetDeviceContainer devices = link.Install(nodes);
        InternetStackHelper().Install(nodes);
        if (m_factory == "ns3::SctpSocketFactory")
        {
            ObjectFactory sctp("ns3::SctpL4Protocol");
            for (uint32_t i = 0; i < 2; ++i)
            {
                nodes.Get(i)->AggregateObject(sctp.Create<Object>());
            }
        }
        Ipv4AddressHelper addresses;
        addresses.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        Ptr<ObjectTransferReceiver> receiver = CreateObject<ObjectTransferReceiver>();
        receiver->SetAttribute("SocketFactory", StringValue(m_factory));
        receiver->SetAttribute("Port", UintegerValue(9));
        receiver->SetAttribute("Objects", UintegerValue(4));
        receiver->SetAttribute("ObjectSize", UintegerValue(20000));
        receiver->SetAttribute("StopWhenComplete", BooleanValue(true));
        nodes.Get(1)->AddApplication(receiver);
        Ptr<ObjectTransferSender> sender = CreateObject<ObjectTransferSender>();
        sender->SetAttribute("SocketFactory", StringValue(m_factory));
        sender->SetAttribute("Remote", AddressValue(InetSocketAddress(interfaces.GetAddress(1), 9)));
        sender->SetAttribute("Objects", UintegerValue(4));
        sender->SetAttribute("ObjectSize", UintegerValue(20000));
        sender->SetAttribute("RecordSize", UintegerValue(1000));
        if (m_factory == "ns3::SctpSocketFactory")
        {
            sender->SetAttribute("StreamPerObject", BooleanValue(true));
        }
        nodes.Get(0)->AddApplication(sender);
        sender->SetStartTime(Seconds(1));
        Simulator::Stop(Seconds(30));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(receiver->GetCompletedCount(), 4u, "every object completed");
        NS_TEST_ASSERT_MSG_EQ(receiver->GetCompletionNs().size(), 4u, "four completion times");
        for (int64_t t : receiver->GetCompletionNs())
        {
            NS_TEST_EXPECT_MSG_GT(t, Seconds(1).GetNanoSeconds(), "after the start");
        }
        NS_TEST_EXPECT_MSG_LT(Simulator::Now(), Seconds(30), "stopped when complete");
        // Records of 1000 bytes, header included: ceil(20000 / (1000 - header)) per object.
        const uint64_t payload = 1000 - ObjectTransferRecord::SIZE;
        const uint64_t records = 4 * ((20000 + payload - 1) / payload);
        NS_TEST_EXPECT_MSG_EQ(sender->GetBytesSent(),
                              80000u + records * ObjectTransferRecord::SIZE,
                              "every byte sent, with a header per record");
        Simulator::Destroy();
    }

    std::string m_factory;
};

/** \ingroup transfer-tests */
class ObjectTransferTestSuite : public TestSuite
{
  public:
    ObjectTransferTestSuite()
        : TestSuite("transfer", Type::SYSTEM)
    {
        AddTestCase(new ObjectTransferTestCase("ns3::TcpSocketFactory"), TestCase::Duration::QUICK);
        TypeId sctp;
        if (TypeId::LookupByNameFailSafe("ns3::SctpL4Protocol", &sctp))
        {
            AddTestCase(new ObjectTransferTestCase("ns3::SctpSocketFactory"),
                        TestCase::Duration::QUICK);
        }
    }
};

static ObjectTransferTestSuite g_objectTransferTestSuite;
