/*
 * Attribute and trace source accessors for a member of a member: an SctpSocket keeps
 * its configuration in value objects (SctpProtocolParameters, SctpAssociationConfig) and
 * its trace sources in an SctpAssociationTraces, and still exports every field as an
 * attribute or trace source of its own (ns-3's MakeXxxAccessor take a data member of the
 * object itself).
 */
#ifndef SCTP_NESTED_ACCESSOR_H
#define SCTP_NESTED_ACCESSOR_H

#include "ns3/attribute-accessor-helper.h"
#include "ns3/trace-source-accessor.h"

#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Accessor of the attribute stored in (object->*outer).*inner.
 * \tparam V the AttributeValue type (e.g. TimeValue)
 */
template <typename V, typename T, typename S, typename U>
Ptr<const AttributeAccessor>
MakeNestedAttributeAccessor(S T::*outer, U S::*inner)
{
    class Accessor : public AccessorHelper<T, V>
    {
      public:
        Accessor(S T::*o, U S::*i)
            : m_outer(o),
              m_inner(i)
        {
        }

      private:
        bool DoSet(T* object, const V* v) const override
        {
            std::remove_cvref_t<U> tmp;
            if (!v->GetAccessor(tmp))
            {
                return false;
            }
            (object->*m_outer).*m_inner = tmp;
            return true;
        }

        bool DoGet(const T* object, V* v) const override
        {
            v->Set((object->*m_outer).*m_inner);
            return true;
        }

        bool HasGetter() const override
        {
            return true;
        }

        bool HasSetter() const override
        {
            return true;
        }

        S T::*m_outer;
        U S::*m_inner;
    };

    return Ptr<const AttributeAccessor>(new Accessor(outer, inner), false);
}

/**
 * \ingroup sctp
 * \brief Accessor of the trace source (object->*outer).*inner (a TracedValue or a
 *        TracedCallback).
 */
template <typename T, typename S, typename SOURCE>
Ptr<const TraceSourceAccessor>
MakeNestedTraceSourceAccessor(S T::*outer, SOURCE S::*inner)
{
    class Accessor : public TraceSourceAccessor
    {
      public:
        Accessor(S T::*o, SOURCE S::*i)
            : m_outer(o),
              m_inner(i)
        {
        }

        bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            T* p = dynamic_cast<T*>(obj);
            if (p == nullptr)
            {
                return false;
            }
            ((p->*m_outer).*m_inner).ConnectWithoutContext(cb);
            return true;
        }

        bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            T* p = dynamic_cast<T*>(obj);
            if (p == nullptr)
            {
                return false;
            }
            ((p->*m_outer).*m_inner).Connect(cb, context);
            return true;
        }

        bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
        {
            T* p = dynamic_cast<T*>(obj);
            if (p == nullptr)
            {
                return false;
            }
            ((p->*m_outer).*m_inner).DisconnectWithoutContext(cb);
            return true;
        }

        bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
        {
            T* p = dynamic_cast<T*>(obj);
            if (p == nullptr)
            {
                return false;
            }
            ((p->*m_outer).*m_inner).Disconnect(cb, context);
            return true;
        }

      private:
        S T::*m_outer;
        SOURCE S::*m_inner;
    };

    return Ptr<const TraceSourceAccessor>(new Accessor(outer, inner), false);
}

} // namespace ns3

#endif /* SCTP_NESTED_ACCESSOR_H */
